import { DEFAULT_INTEGRITY_RULES, type IntegrityRules, integrityRuleBits, withReviews } from '../domain/arena/vote-integrity';
import { BoardJudgement, type IntegrityVerdicts } from './vote-integrity-judgement';
import { ratingsOfBoard } from './vote-integrity';
import { voteFacts } from './vote-facts';
import { RankingVoteColumns, type VoteColumns } from '../domain/ranking/vote-columns';
import { firstVotePerVisitorCluster, withoutPromptClusters } from '../domain/ranking/prompt-cluster-cap';
import type { LeaderboardBody, LeaderboardQuery } from '@agora/contract';
import type { Leaderboard } from '../domain/ranking';
import type { Store } from '../db/unit-of-work';
import type { EnergyClasses } from './energy-classes';
import { type BoardDressing, boardBody } from './leaderboard-body';
import { columnsDigest, storedBoardsCurrent } from './leaderboard-unchanged';
import type { ArenaCatalogue } from './arena-catalogue';
import { nextTurnOfTheEventLoop, ReadProgress, type ProgressLog } from './read-progress';
import { availableViews, countOf, mainBoardVotes, viewDefinitions } from './leaderboard-view-plan';
import { OWN_VIEW_MODES, countedVotes, reactionViewVotes, toViewVote, viewKey } from '../domain/ranking/leaderboard-views';
import type { RankingComputer } from '../adapters/ranking-worker/ranking-computer';
import { LATE_COMMIT_MARGIN_MS, type Runtime } from './ports/runtime';
import type { RankingChange } from '../db/repositories/feedback.repository';
import { type ModelTallies, modelTallies } from '../domain/ranking/model-tallies';
import type { KeptColumnsSnapshot, KeptVotes } from './leaderboard-columns-snapshot';

export interface LeaderboardSettings {
  /** Below this many votes a view is not shown. */
  minVotes: number;
  /** Add compar:IA's reaction matches to the votes (off by default: reactions are not votes). */
  reactions?: boolean;
  impact: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined };
  /** Vote integrity rules; votes they flag are left out (docs/arena.md#vote-integrity). */
  integrity?: IntegrityRules;
  /** Count custom-mode votes (the visitor chose the models) on the main board too; off by default: they have their own view. */
  customModeOnMainBoard?: boolean;
  promptDedup?: boolean; // off: prompt clusters ignored (no per-visitor count, cap or cluster_push; docs/ranking.md#duplicate-prompts)
}

/**
 * Votes read from the store per query while a refresh streams them into columns. Small pages die
 * young: at 1M votes, pages of 2,000 peaked at 1,071 MB in 19.2 s, pages of 20,000 at 1,353 MB in
 * 23.0 s (run back to back), their objects promoted to the old generation before they were done.
 */
const VOTE_PAGE = 2_000;
/**
 * The kept votes are read again in full this often, whatever happened: a change committed later
 * than LATE_COMMIT_MARGIN_MS after its stamp would otherwise be missed for good.
 */
const FULL_RELOAD_MS = 6 * 3600_000;
const CHANGES: readonly RankingChange[] = ['voted', 'annotated', 'reviewed'];

/** What a refresh did: views computed, votes in them (counted or not), whether it read every vote or only the changes, and whether it fitted. */
export interface RefreshOutcome {
  views: number;
  votes: number;
  read: 'everything' | 'changes';
  /** False when a restart found nothing changed since the snapshot and served the stored boards (leaderboard-unchanged.ts). */
  fitted: boolean;
}

/**
 * The live leaderboard: a refresh brings the kept votes up to date with the store, ranks each view
 * with enough votes (overall, per language, per mode, per topic; plain and style-controlled) in the
 * ranking worker, and stores the result as snapshots; requests read the latest snapshot and never
 * wait for a fit.
 */
export class LeaderboardService {
  private latest = new Map<string, LeaderboardBody>();
  /** Counted votes on the main board at the last refresh here, shown while it has too few to be computed. */
  private mainCount = 0;
  /** Pair records and languages over the main board's votes at the last refresh here (model sheets). */
  private tallies: ModelTallies | undefined;
  private loaded = false;
  /** A refresh has ended in this process. */
  private loadedHere = false;
  private kept: KeptVotes | undefined;
  private refreshing: Promise<unknown> = Promise.resolve();
  /** Bumped when another instance's snapshots are loaded: a refresh under way then keeps nothing. */
  private generation = 0;
  /** The start's full read, while no refresh has ended here: shown on an empty board. */
  private reading: { read: number; total: number } | undefined;
  /** Set by a catch-up from the snapshot that changed nothing: the snapshot's read (ms), for the stored boards' check. */
  private unchangedSince: number | undefined;
  /** The duels whose votes the last refresh here left out by the integrity rules or a reviewer. */
  /** The last refresh's judgement of every vote (the model sheets' tags, the console's integrity pages). */
  private judged: BoardJudgement | undefined;

  constructor(
    private readonly dependencies: {
      store: Store;
      catalogue: ArenaCatalogue;
      computer: RankingComputer;
      runtime: Runtime;
      settings: LeaderboardSettings;
      /** The catalogue's energy classes, for each row's (none without them). */
      energyClasses?: EnergyClasses;
      /** Progress of a full read of the votes (a start on a large store takes a while). */
      log?: ProgressLog | undefined;
      /** The kept votes on disk: a restart catches up from it (none: every start reads every vote). */
      columnsSnapshot?: KeptColumnsSnapshot | undefined;
    },
  ) {}

  /**
   * Recomputes every view and stores the snapshots; returns how many views were computed. One at a
   * time: a call during a refresh runs after it.
   */
  refresh(): Promise<RefreshOutcome> {
    const next = this.refreshing.then(
      () => this.refreshNow(),
      () => this.refreshNow(),
    );
    this.refreshing = next;
    return next;
  }

  /**
   * The votes are kept between refreshes as columns (about seventy bytes a vote): read in full once,
   * streamed from the store a page of objects at a time, then brought up to date at each refresh
   * with the votes cast, annotated or reviewed since the last one. The integrity rules and the
   * views run on the columns; the ranking worker reads them in place (shared memory).
   */
  private async refreshNow(): Promise<RefreshOutcome> {
    const { store, computer, runtime, settings } = this.dependencies;
    // Reaction matches (off by default) have no change log of their own: with them, every refresh reads everything.
    const generation = this.generation;
    // What the store held as this refresh began (the console's judgement is current while it stays so).
    const stamp = await store.feedback.rankingChangeStamp();
    const kept = settings.reactions ? await this.readEverything(true, generation) : await this.catchUp(generation);
    const columns = settings.promptDedup === false ? withoutPromptClusters(kept.columns.view()) : kept.columns.view();
    // The campaign rule judges votes against the previous main board's prediction (none before the
    // first): the stored one after a restart, so that a campaign is not counted for one refresh.
    const ratings = await this.storedRatings();
    const ratingOf = ratings && Float64Array.from(columns.models, (model) => ratings.get(model) ?? Number.NaN);
    // One vote per visitor and prompt cluster (docs/ranking.md#duplicate-prompts); the views cap each cluster's weight.
    const ruleBits = integrityRuleBits(columns, settings.integrity ?? DEFAULT_INTEGRITY_RULES, ratingOf);
    const integrityBits = withReviews(columns, ruleBits);
    if (generation === this.generation)
      this.judged = new BoardJudgement(columns, ruleBits, integrityBits, this.ownViewModes(), kept.columns, stamp);
    const counted = firstVotePerVisitorCluster(columns, countedVotes(columns, integrityBits));
    const ownViewModes = settings.customModeOnMainBoard ? [] : OWN_VIEW_MODES;
    const onMainBoard = mainBoardVotes(columns, counted, ownViewModes);
    const available = availableViews(columns, counted, onMainBoard, settings.minVotes);
    const mainCount = countOf(onMainBoard);
    const views = viewDefinitions(mainCount >= settings.minVotes, available, ownViewModes);
    const energy = kept.columns.meanEnergyByModel();
    const since = this.unchangedSince;
    this.unchangedSince = undefined;
    const expected = { viewKeys: views.map((view) => view.key), available, energy, readFrom: since ?? Number.POSITIVE_INFINITY };
    if (since !== undefined && generation === this.generation && storedBoardsCurrent(this.latest, expected, this.dressing()))
      return this.serveStored(columns, onMainBoard, mainCount, kept, since);
    // No view has enough votes yet: nothing to fit (and no worker to start).
    const results = views.length > 0 ? await computer.computeViews(columns, counted, views) : new Map<string, Leaderboard>();
    const generatedAt = runtime.now().toISOString();
    const bodies = views.map((view) => boardBody(this.dressing(), view, results.get(view.key)!, generatedAt, available, energy));
    await store.leaderboards.insertSnapshots(
      bodies.map((body, index) => ({
        id: runtime.newId(),
        view: views[index]!.key,
        generatedAt,
        nVotes: body.n_votes,
        body,
      })),
    );
    // Every instance's model sheets read the records of the refresh whose snapshots they serve.
    const tallies = modelTallies(columns, onMainBoard, generatedAt);
    await store.modelProfiles.saveTallies(tallies);
    // Snapshots another instance computed since (reloadLatest) are newer than this refresh's.
    if (generation === this.generation) {
      this.latest = new Map(views.map((view, index) => [view.key, bodies[index]!]));
      this.mainCount = mainCount;
      this.tallies = tallies;
      this.loaded = true;
    }
    this.loadedHere = true;
    this.reading = undefined;
    return { views: views.length, votes: columns.length - kept.columns.erased, read: kept.read, fitted: true };
  }

  /** The stored boards are the fits of the votes as they are (leaderboard-unchanged.ts): served without fitting again. */
  private async serveStored(
    columns: VoteColumns,
    onMainBoard: Uint8Array,
    mainCount: number,
    kept: KeptVotes,
    since: number,
  ): Promise<RefreshOutcome> {
    // The boards are older than this catch-up: a snapshot written now keeps the read they follow, so
    // that the next restart finds them current too (reading changes from further back is always right).
    kept.readFrom = since;
    const generatedAt = this.latestOverall()?.generated_at ?? [...this.latest.values()][0]!.generated_at!;
    this.tallies = modelTallies(columns, onMainBoard, generatedAt);
    await this.dependencies.store.modelProfiles.saveTallies(this.tallies);
    this.mainCount = mainCount;
    this.loadedHere = true;
    this.reading = undefined;
    const votes = columns.length - kept.columns.erased;
    this.dependencies.log?.(
      { views: this.latest.size, votes },
      'leaderboard: nothing changed since its snapshot, the stored boards are served without a fit',
    );
    return { views: this.latest.size, votes, read: kept.read, fitted: false };
  }

  private dressing(): BoardDressing {
    const { catalogue, energyClasses, settings } = this.dependencies;
    return { catalogue, energyClasses, minVotes: settings.minVotes, impact: settings.impact };
  }

  /**
   * The kept votes, brought up to date: the changes since the last read, or every vote again when
   * there is nothing kept, the epoch moved (a purge or an import rewrote votes), the periodic reload
   * is due, or the store holds votes older than the look-back that the columns lack (a vote that
   * committed later than the margin after its stamp).
   */
  private async catchUp(generation: number): Promise<KeptVotes> {
    const { store, runtime } = this.dependencies;
    const epoch = await store.feedback.rankingEpoch();
    const loaded = this.kept
      ? undefined
      : await this.dependencies.columnsSnapshot?.loadOnce(epoch, (before) => store.feedback.countVotesBefore(before));
    const kept = (this.kept ??= loaded);
    const startedAt = runtime.now().getTime();
    if (!kept || kept.epoch !== epoch || startedAt - kept.loadedAt >= FULL_RELOAD_MS) return this.readEverything(false, generation);
    // Fresh from the snapshot: whether the catch-up changes anything (if not, the stored boards may be current).
    const before = loaded && { digest: columnsDigest(kept.columns), readFrom: kept.readFrom };
    const sinceMs = kept.readFrom - LATE_COMMIT_MARGIN_MS;
    const since = new Date(sinceMs).toISOString();
    for (const by of CHANGES)
      for await (const page of store.feedback.rankingVotePages(VOTE_PAGE, { by, since })) {
        for (const record of page) kept.columns.put({ view: toViewVote(record), facts: voteFacts(record) }, record.duelId);
        await nextTurnOfTheEventLoop();
      }
    // Votes their visitors erased (docs/privacy.md#your-duels): out of the board from this refresh on.
    for (const duelId of await store.visitorDuels.erasedVotesSince(since)) kept.columns.erase(duelId);
    kept.readFrom = startedAt;
    kept.read = 'changes';
    // Compared on the votes cast before the look-back, which no vote arriving now can add to:
    // new votes during the catch-up would otherwise hide a missed one.
    if (kept.columns.countCastBefore(sinceMs) + kept.merged < (await store.feedback.countVotesBefore(since)))
      return this.readEverything(false, generation);
    if (before && columnsDigest(kept.columns) === before.digest) this.unchangedSince = before.readFrom;
    return kept;
  }

  /** Every vote from the store into new columns (kept for the next refresh unless reaction matches are added). */
  private async readEverything(withReactions: boolean, generation: number): Promise<KeptVotes> {
    const { store, runtime } = this.dependencies;
    // The old columns go first: the peak holds one set.
    this.kept = undefined;
    const epoch = await store.feedback.rankingEpoch();
    const startedAt = runtime.now().getTime();
    const columns = new RankingVoteColumns();
    const total = await store.feedback.countVotes();
    const progress = new ReadProgress(total, runtime, this.dependencies.log);
    const first = !this.loadedHere;
    if (first && total > 0) this.reading = { read: 0, total };
    let read = 0;
    for await (const page of store.feedback.rankingVotePages(VOTE_PAGE)) {
      read += page.length;
      for (const record of page) columns.put({ view: toViewVote(record), facts: voteFacts(record) }, record.duelId);
      progress.update(read);
      if (first && total > 0) this.reading = { read, total };
      await nextTurnOfTheEventLoop();
    }
    progress.done(read);
    const kept: KeptVotes = { columns, epoch, readFrom: startedAt, loadedAt: startedAt, merged: read - columns.length, read: 'everything' };
    if (withReactions) {
      for (const vote of reactionViewVotes(await store.feedback.listRankingReactions())) columns.put({ view: vote });
      return kept;
    }
    // Another instance took the leaderboard meanwhile (reloadLatest): nothing to keep.
    if (generation === this.generation) this.kept = kept;
    return kept;
  }

  /** Writes the kept votes' snapshot if due, between refreshes (nothing changes the columns meanwhile); says whether it wrote. */
  saveColumnsSnapshot(): Promise<boolean> {
    const write = async () =>
      this.kept && this.dependencies.columnsSnapshot?.due(this.kept) ? this.dependencies.columnsSnapshot.save(this.kept) : false;
    const next = this.refreshing.then(write, write);
    this.refreshing = next;
    return next;
  }

  /** The ratings of the latest overall plain view's ranked models, if one was computed (for the campaign rule). */
  latestRatings(): ReadonlyMap<string, number> | undefined {
    return ratingsOfBoard(this.latestOverall());
  }

  /** {@link latestRatings}, reading the stored snapshots first if this process has not yet. */
  async storedRatings(): Promise<ReadonlyMap<string, number> | undefined> {
    await this.loadLatest();
    return this.latestRatings();
  }

  /** The latest overall plain view, if one was computed (for the pairing policy). */
  latestOverall(): LeaderboardBody | undefined {
    return this.latest.get(viewKey({ style: 'plain' }));
  }

  /** The latest snapshot of a view, or an empty view (with its vote count) when it has too few votes. */
  async view(query: LeaderboardQuery): Promise<LeaderboardBody> {
    await this.loadLatest();
    const key = viewKey(query);
    const found = this.latest.get(key);
    if (found) return found;
    const any = this.latest.values().next().value;
    const available = any?.available ?? { languages: [], modes: [], categories: [] };
    const filterCount = [
      ...available.languages.filter((entry) => entry.value === query.language),
      ...available.modes.filter((entry) => entry.value === query.mode),
      ...available.categories.filter((entry) => entry.value === query.category),
    ][0]?.n_votes;
    return {
      generated_at: any?.generated_at ?? null,
      view: { style: query.style, language: query.language ?? null, category: query.category ?? null, mode: query.mode ?? null },
      // Below the minimum the main board has no snapshot: the votes it counts so far, not 0 (issue 32).
      n_votes: filterCount ?? (query.language || query.mode || query.category ? 0 : this.mainCount),
      min_votes: this.dependencies.settings.minVotes,
      variant: null,
      models: [],
      available,
      style_coefficients: null,
      ...(this.reading ? { catching_up: { ...this.reading } } : {}),
    };
  }

  /** A model's overall rating over the kept snapshots, oldest first. */
  async history(modelId: string, style: 'plain' | 'controlled', limit: number) {
    const snapshots = await this.dependencies.store.leaderboards.snapshotsOfView(viewKey({ style }), limit);
    const points = snapshots.flatMap((snapshot) => {
      const row = snapshot.body.models.find((candidate) => candidate.model === modelId);
      return row
        ? [{ generated_at: snapshot.generatedAt, rating: row.rating, ci_low: row.ci_low, ci_high: row.ci_high, n_votes: snapshot.nVotes }]
        : [];
    });
    return { model: modelId, points };
  }

  /** Every view's latest snapshot (model sheets read a model's rating in each). */
  async latestViews(): Promise<LeaderboardBody[]> {
    await this.loadLatest();
    return [...this.latest.values()];
  }

  /** The pair records and languages of the last refresh this process ran (none on an instance that only reads snapshots). */
  latestTallies(): ModelTallies | undefined {
    return this.tallies;
  }

  /** Modes whose arena votes the main board leaves out ({@link OWN_VIEW_MODES}, unless the settings count them). */
  ownViewModes(): readonly string[] {
    return this.dependencies.settings.customModeOnMainBoard ? [] : OWN_VIEW_MODES;
  }

  /**
   * The duels whose votes the last refresh here left out by the integrity rules or a reviewer, as the
   * model sheets and the population board leave them out; none before a refresh here, or when
   * another instance computes the board.
   */
  flaggedDuels(): Pick<ReadonlySet<string>, 'has'> | undefined {
    return this.judged?.flagged;
  }

  /** The store's change stamp when the last refresh here began; none when the board is not computed here. */
  judgedStamp(): string | undefined {
    return this.dependencies.settings.reactions ? undefined : this.judged?.stamp;
  }

  /**
   * The last refresh's verdicts on every vote, its rows named by their duels' 64-bit digests (the
   * console's integrity pages), taken between refreshes; none when the board is not computed here
   * (another instance's, or reaction matches, whose columns are not kept).
   */
  verdicts(): Promise<IntegrityVerdicts<[hi: number, lo: number]> | undefined> {
    const take = () => (this.dependencies.settings.reactions ? undefined : this.judged?.verdicts());
    const next = this.refreshing.then(take, take);
    this.refreshing = next;
    return next;
  }

  /** Reads the latest snapshots again from the store: another instance computed them (several instances). */
  async reloadLatest(): Promise<{ views: number; votes: number }> {
    // Another instance fits: kept votes would only hold memory, and go stale.
    this.generation += 1;
    this.kept = undefined;
    this.judged = undefined;
    const snapshots = await this.dependencies.store.leaderboards.latestSnapshots();
    this.latest = new Map(snapshots.map((snapshot) => [snapshot.view, snapshot.body]));
    this.loaded = true;
    return { views: snapshots.length, votes: 0 };
  }

  private async loadLatest(): Promise<void> {
    if (this.loaded) return;
    const snapshots = await this.dependencies.store.leaderboards.latestSnapshots();
    this.latest = new Map(snapshots.map((snapshot) => [snapshot.view, snapshot.body]));
    this.loaded = true;
  }
}
