import { UNUSABLE_HASH, hashPassword, verifyPassword } from '../adapters/password-hash';
import { BUNDLED_PAGES, sitePageFiles } from '../adapters/site-page-files';
import type { Config } from '../config/config';
import type { Store } from '../db/unit-of-work';
import type { ConsoleServices } from '../http/routes/console';
import { ActivityService } from '../services/activity.service';
import { AuditService } from '../services/audit.service';
import { ContentService } from '../services/content.service';
import type { Runtime } from '../services/ports/runtime';
import { StaffService } from '../services/staff.service';

/** The address one-time links point to when the operator gave none: this server's own. */
export function publicUrlOf(config: Pick<Config, 'console' | 'host' | 'port'>): string {
  if (config.console.publicUrl) return config.console.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The console's services (docs/operations.md#the-console), shared by the HTTP app, the CLI and the jobs. */
export function createConsoleServices({ config, store, runtime }: { config: Config; store: Store; runtime: Runtime }): ConsoleServices {
  return {
    staff: new StaffService(
      store,
      runtime,
      { hash: hashPassword, verify: verifyPassword, unusable: UNUSABLE_HASH },
      { sessionIdleMs: config.console.sessionIdleMs, sessionMaxMs: config.console.sessionMaxMs, publicUrl: publicUrlOf(config) },
    ),
    audit: new AuditService(store, runtime, config.console.auditRetentionDays),
    content: new ContentService(store, runtime, {
      folder: config.pagesDir ? sitePageFiles(config.pagesDir) : undefined,
      bundled: sitePageFiles(BUNDLED_PAGES),
    }),
    activity: new ActivityService(store.activity, runtime),
  };
}
