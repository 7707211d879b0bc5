import type { HeadToHead, LeaderboardBody, ModelProfile, PairRecord, ProfileRating } from '@agora/contract';
import { type ModelTallies, observedWinShare, predictedWinProbability, recordOf } from '../domain/ranking/model-tallies';
import { viewKey } from '../domain/ranking/leaderboard-views';
import type { ModelTagCounts } from '../db/repositories/model-profile.repository';
import type { Store } from '../db/unit-of-work';
import type { ArenaCatalogue } from './arena-catalogue';
import { AppError } from './app-error';
import { presentCapabilityView } from './capability-views';

/** What the profiles read of the live leaderboard: its latest snapshots and the tallies of the same refresh. */
export interface ProfileBoard {
  latestViews(): Promise<LeaderboardBody[]>;
  latestTallies(): ModelTallies | undefined;
  /** Modes whose arena votes the main board leaves out. */
  ownViewModes(): readonly string[];
}

const EMPTY_TALLIES: ModelTallies = { generatedAt: '', pairs: [], languages: [] };

/**
 * Model sheets and head-to-head pages, served from the leaderboard's latest refresh (ratings from
 * its snapshots, records and languages from the tallies it took over the votes it counted), and
 * the tags from the store, cached per model until the next refresh: a request never reads every vote.
 */
export class ModelProfileService {
  private tagCache = new Map<string, { generatedAt: string | null; counts: Promise<ModelTagCounts> }>();
  /** The stored tallies, read once per set of snapshots, on an instance that did not compute them. */
  private storedTallies: { generatedAt: string | null; tallies: Promise<ModelTallies | undefined> } | undefined;

  constructor(
    private readonly dependencies: {
      store: Store;
      catalogue: ArenaCatalogue;
      board: ProfileBoard;
      /** Duels whose votes the integrity rules or a reviewer keep off every board (services/vote-integrity.ts); none: all count. */
      flaggedDuels?: () => Promise<Pick<ReadonlySet<string>, 'has'>>;
    },
  ) {}

  async profile(model: string): Promise<ModelProfile> {
    const views = inReadingOrder(await this.dependencies.board.latestViews());
    const tallies = await this.talliesOf(views);
    this.requireKnown(model, views, tallies);
    const generatedAt = generatedAtOf(views);
    const overall = overallRatings(views);
    const opponents = new Set<string>();
    for (const pair of tallies.pairs) {
      if (pair.a === model) opponents.add(pair.b);
      if (pair.b === model) opponents.add(pair.a);
    }
    for (const other of overall.keys()) if (other !== model) opponents.add(other);
    const tags = await this.tagCounts(model, generatedAt);
    return {
      model,
      name: this.dependencies.catalogue.card(model).name,
      generated_at: generatedAt,
      ratings: views.flatMap((body) => ratingIn(body, model) ?? []),
      matrix: [...opponents].sort().map((opponent) => this.pairRecord(tallies, overall, model, opponent)),
      vote_tags: { answers: tags.taggedAnswers, tags: shares(tags.voteTags, tags.taggedAnswers) },
      reactions: { ...tags.reactions, tags: shares(tags.reactions.tags, tags.reactions.total) },
      languages: tallies.languages
        .filter((entry) => entry.model === model)
        .map((entry) => ({ language: entry.language, votes: entry.votes }))
        .sort((left, right) => right.votes - left.votes || (left.language < right.language ? -1 : 1)),
    };
  }

  async headToHead(a: string, b: string): Promise<HeadToHead> {
    const views = inReadingOrder(await this.dependencies.board.latestViews());
    const tallies = await this.talliesOf(views);
    this.requireKnown(a, views, tallies);
    this.requireKnown(b, views, tallies);
    if (a === b) throw new AppError('invalid_request', 'a model is not compared with itself');
    const { catalogue } = this.dependencies;
    return {
      a: { model: a, name: catalogue.card(a).name },
      b: { model: b, name: catalogue.card(b).name },
      generated_at: generatedAtOf(views),
      record: this.pairRecord(tallies, overallRatings(views), a, b),
      views: views.flatMap((body) => {
        const [left, right] = [ratingIn(body, a) ?? null, ratingIn(body, b) ?? null];
        return left || right ? [{ view: presentCapabilityView(body).view, a: left, b: right }] : [];
      }),
    };
  }

  private pairRecord(tallies: ModelTallies, overall: Map<string, number>, model: string, opponent: string): PairRecord {
    const record = recordOf(tallies, model, opponent) ?? { wins: 0, ties: 0, bothBad: 0, losses: 0 };
    const [rating, opponentRating] = [overall.get(model), overall.get(opponent)];
    return {
      opponent,
      opponent_name: this.dependencies.catalogue.card(opponent).name,
      wins: record.wins,
      ties: record.ties,
      both_bad: record.bothBad,
      losses: record.losses,
      n: record.wins + record.ties + record.bothBad + record.losses,
      observed: observedWinShare(record),
      predicted: rating === undefined || opponentRating === undefined ? null : predictedWinProbability(rating, opponentRating),
    };
  }

  /** Models the public catalogue lists, and models of old votes still on a board; anything else is unknown (404). */
  private requireKnown(model: string, views: readonly LeaderboardBody[], tallies: ModelTallies): void {
    const { catalogue } = this.dependencies;
    if (catalogue.has(model)) {
      if (catalogue.publicCards().some((card) => card.id === model)) return;
    } else if (
      views.some((body) => body.models.some((row) => row.model === model)) ||
      tallies.pairs.some((pair) => pair.a === model || pair.b === model)
    )
      return;
    throw new AppError('not_found', `no model ${model}`);
  }

  /**
   * The tallies of the refresh whose snapshots are served: this process's own when it computed them,
   * else the stored ones (another instance refreshes), read again only when the snapshots change.
   */
  private async talliesOf(views: readonly LeaderboardBody[]): Promise<ModelTallies> {
    const generatedAt = generatedAtOf(views);
    const own = this.dependencies.board.latestTallies();
    if (own && own.generatedAt === generatedAt) return own;
    if (!this.storedTallies || this.storedTallies.generatedAt !== generatedAt)
      this.storedTallies = { generatedAt, tallies: this.dependencies.store.modelProfiles.latestTallies() };
    const stored = await this.storedTallies.tallies.catch(() => undefined);
    return stored ?? own ?? EMPTY_TALLIES;
  }

  /** A model's tag counts, read again once a newer refresh is out (at most one query per model and refresh). */
  private tagCounts(model: string, generatedAt: string | null): Promise<ModelTagCounts> {
    const cached = this.tagCache.get(model);
    if (cached && cached.generatedAt === generatedAt) return cached.counts;
    const { store, board, flaggedDuels } = this.dependencies;
    const counts = (flaggedDuels?.() ?? Promise.resolve(new Set<string>())).then((flagged) =>
      store.modelProfiles.tagCounts(model, board.ownViewModes(), flagged),
    );
    this.tagCache.set(model, { generatedAt, counts });
    // A failed read is not kept: the next request tries again.
    counts.catch(() => this.tagCache.get(model)?.counts === counts && this.tagCache.delete(model));
    return counts;
  }
}

/** Overall first, then languages, modes and topics (each by value), plain before style-controlled. */
function inReadingOrder(views: readonly LeaderboardBody[]): LeaderboardBody[] {
  const kind = ({ view }: LeaderboardBody) => (view.language ? 1 : view.mode ? 2 : view.category ? 3 : 0);
  const value = ({ view }: LeaderboardBody) => view.language ?? view.mode ?? view.category ?? '';
  return [...views].sort(
    (left, right) =>
      kind(left) - kind(right) ||
      (value(left) < value(right) ? -1 : value(left) > value(right) ? 1 : 0) ||
      (left.view.style === right.view.style ? 0 : left.view.style === 'plain' ? -1 : 1),
  );
}

function generatedAtOf(views: readonly LeaderboardBody[]): string | null {
  return views.map((body) => body.generated_at).reduce<string | null>((latest, at) => (at && (!latest || at > latest) ? at : latest), null);
}

/** The overall plain board's ratings, the ones the predictions use. */
function overallRatings(views: readonly LeaderboardBody[]): Map<string, number> {
  const overall = views.find((body) => viewKey(body.view) === viewKey({ style: 'plain' }));
  return new Map((overall?.models ?? []).map((row) => [row.model, row.rating]));
}

function ratingIn(body: LeaderboardBody, model: string): ProfileRating | undefined {
  const row = body.models.find((candidate) => candidate.model === model);
  return (
    row && {
      view: presentCapabilityView(body).view,
      rating: row.rating,
      ci_low: row.ci_low,
      ci_high: row.ci_high,
      rank: row.rank,
      n_battles: row.n_battles,
    }
  );
}

/** Counts as a list, most first (ties by tag), with each count's share of `total`. */
function shares(counts: Map<string, number>, total: number) {
  return [...counts]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .map(([tag, count]) => ({ tag, count, share: total === 0 ? 0 : count / total }));
}
