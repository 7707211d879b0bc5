import {
  type ArenaStats,
  INTERFACE_LOCALES,
  type SitePage,
  type SitePageList,
  type SitePageName,
  sitePageNameSchema,
} from '@agora/contract';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { SitePageSource } from './ports/site-pages';

/** Languages tried after the visitor's, in order: most operators write English or French. */
const FALLBACK_LOCALES = ['en', 'fr'];
/** The vote counter is read at most this often (a count over the whole votes table). */
const STATS_TTL_MS = 30_000;

/** What the site shows besides the pages' texts. */
export interface SiteOptions {
  /** The vote counter's goal, shown beside it. */
  voteGoal?: number | undefined;
  /** How visitors reach the operator (an e-mail address or a URL): the web app shows it on the privacy, legal and accessibility pages. */
  operatorContact?: string | undefined;
}

/** The site around the arena: the operator's pages (methodology, terms, privacy, legal, accessibility) and the vote counter. */
export class SiteService {
  private stats: { value: ArenaStats; at: number } | undefined;

  constructor(
    private readonly store: Store,
    /** The operator's texts first, then the bundled ones: any text the operator wrote beats every bundled one. */
    private readonly sources: readonly SitePageSource[],
    private readonly options: SiteOptions = {},
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The page in `locale`, else in the first fallback language written, the operator's sources before
   * the bundled ones; a page written in none of these (a legal notice written in the console in
   * Lithuanian alone) in the first other interface language that has it.
   */
  async page(name: SitePageName, locale: string | undefined): Promise<SitePage> {
    const preferred = [...new Set([...(locale ? [locale] : []), ...FALLBACK_LOCALES])];
    const found =
      (await this.firstWritten(name, preferred)) ??
      (await this.firstWritten(
        name,
        INTERFACE_LOCALES.filter((candidate) => !preferred.includes(candidate)),
      ));
    if (!found) throw new AppError('not_found', `no text for the page ${name}`);
    return found;
  }

  private async firstWritten(name: SitePageName, locales: readonly string[]): Promise<SitePage | undefined> {
    for (const source of this.sources) {
      for (const candidate of locales) {
        const markdown = await source(name, candidate);
        if (markdown !== undefined) return { name, locale: candidate, markdown };
      }
    }
    return undefined;
  }

  /** The pages some source has a text for, in any language (the web app links these and no others), and the operator's contact. */
  async pages(): Promise<SitePageList> {
    const written = await Promise.all(
      sitePageNameSchema.options.map(async (name) => ((await this.page(name, undefined).catch(() => undefined)) ? [name] : [])),
    );
    return { pages: written.flat(), operator_contact: this.options.operatorContact ?? null };
  }

  async voteCounter(): Promise<ArenaStats> {
    if (this.stats && this.now() - this.stats.at < STATS_TTL_MS) return this.stats.value;
    const value = { votes: await this.store.feedback.countVotes(), vote_goal: this.options.voteGoal ?? null };
    this.stats = { value, at: this.now() };
    return value;
  }
}
