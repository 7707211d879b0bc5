import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SitePageSource } from '../services/ports/site-pages';

/** The texts Agora ships (French and English), used for any page an operator has not written. */
export const BUNDLED_PAGES = fileURLToPath(new URL('./site-pages/', import.meta.url));

/**
 * Pages as Markdown files, `<name>.<locale>.md` in one folder, read on each request so that an edit
 * shows without a restart (they are small, and browsers cache the answer). Anything that is not a
 * readable regular file (missing, a folder, unreadable) counts as not written: the next language or
 * source answers, never a 500.
 */
export function sitePageFiles(folder: string): SitePageSource {
  return async (name, locale) => {
    try {
      return await readFile(join(folder, `${name}.${locale}.md`), 'utf8');
    } catch {
      return undefined;
    }
  };
}
