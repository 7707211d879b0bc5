import type { ArenaStats, SitePage, SitePageName } from '@agora/contract';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { SitePageSource } from './ports/site-pages';

/** Languages tried after the visitor's, in order: most operators write English or French. */
const FALLBACK_LOCALES = ['en', 'fr'];
/** The vote counter is read at most this often (a count over the whole votes table). */
const STATS_TTL_MS = 30_000;

/** The site around the arena: the operator's pages (methodology, terms, privacy, legal, accessibility) and the vote counter. */
export class SiteService {
  private stats: { value: ArenaStats; at: number } | undefined;

  constructor(
    private readonly store: Store,
    /** The operator's texts first, then the bundled ones: any text the operator wrote beats every bundled one. */
    private readonly sources: readonly SitePageSource[],
    private readonly voteGoal: number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page in `locale`, else in the first fallback language written, the operator's sources before the bundled ones. */
  async page(name: SitePageName, locale: string | undefined): Promise<SitePage> {
    const locales = [...new Set([...(locale ? [locale] : []), ...FALLBACK_LOCALES])];
    for (const source of this.sources) {
      for (const candidate of locales) {
        const markdown = await source(name, candidate);
        if (markdown !== undefined) return { name, locale: candidate, markdown };
      }
    }
    throw new AppError('not_found', `no text for the page ${name}`);
  }

  async voteCounter(): Promise<ArenaStats> {
    if (this.stats && this.now() - this.stats.at < STATS_TTL_MS) return this.stats.value;
    const value = { votes: await this.store.feedback.countVotes(), vote_goal: this.voteGoal ?? null };
    this.stats = { value, at: this.now() };
    return value;
  }
}
