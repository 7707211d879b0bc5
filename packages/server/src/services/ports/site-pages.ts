import type { SitePageName } from '@agora/contract';

/** Reads the text of a page in one language from one source, or undefined when it has none (adapters/site-page-files.ts). */
export type SitePageSource = (name: SitePageName, locale: string) => Promise<string | undefined>;
