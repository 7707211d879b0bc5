import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SitePageSource } from '../services/site.service';

/** The texts Agora ships (French and English), used for any page an operator has not written. */
export const BUNDLED_PAGES = fileURLToPath(new URL('./site-pages/', import.meta.url));

/**
 * The operator's pages as Markdown files, `<name>.<locale>.md`, looked up in each folder in turn
 * (the operator's, then the bundled texts). Read on each request so that an edit shows without a
 * restart: they are small, and browsers cache the answer.
 */
export function sitePageFiles(folders: readonly string[]): SitePageSource {
  return async (name, locale) => {
    for (const folder of folders) {
      try {
        return await readFile(join(folder, `${name}.${locale}.md`), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return undefined;
  };
}
