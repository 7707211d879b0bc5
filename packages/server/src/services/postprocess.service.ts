import { screenText } from '../domain/privacy';
import type { RulesInput, RulesLayer, RulesOutput } from '../adapters/rules-layer/rules-layer';
import type { ConversationAnnotation, DueConversation, SweepPosition, TurnLanguages } from '../db/repositories/annotation.repository';
import type { TurnRecord, TurnSideRecord } from '../db/repositories/duel.repository';
import type { Store } from '../db/unit-of-work';
import { LATE_COMMIT_MARGIN_MS, type Runtime } from './ports/runtime';
import type { AnnotatedTurn, ConversationAnnotator, ConversationTopics } from '../adapters/conversation-annotator';
import { combineCapabilities, withEarlierModelLabels } from '../domain/annotation/capabilities';
import { assignPromptClusters } from './prompt-cluster-assignment';
import { StageTimes } from './postprocess-stages';
import { PromptClusterIndex } from './prompt-cluster-index';
import { FirstSweepProgress } from './postprocess-progress';
import type { ProgressLog } from './read-progress';

export interface PostprocessOptions {
  /** Tries per conversation before it is marked `failed` (never exported). */
  maxAttempts: number;
  /** First retry delay; doubles with each failed attempt. */
  retryDelayMs: number;
  /** Unvoted duels untouched this long count as finished. */
  idleMs: number;
  /** Conversations annotated at once (model calls in flight). */
  concurrency: number;
  /** Where the first sweep after a start logs its progress (the server's log; the CLI prints its own). */
  progressLog?: ProgressLog | undefined;
  /** At most one progress line this often (5 s). */
  progressEveryMs?: number | undefined;
}

/** What one pass did, for logs, metrics and the CLI. */
export interface PostprocessReport {
  /** Conversations looked at. */
  processed: number;
  done: number;
  /** Flagged by either layer (among `done`). */
  flagged: number;
  /** Failed this time and queued for another try. */
  retrying: number;
  /** Out of tries: `failed`, never exported. */
  failed: number;
}

/** A page of due conversations, read, waiting for the rules layer. */
interface DuePage {
  now: Date;
  idleBefore: Date;
  limit: number;
  /** Read in the first sweep over every duel (keyset order). */
  sweeping: boolean;
  due: DueConversation[];
  read: ReturnType<typeof completeTurns>[];
  /**
   * The rules layer's answer for the page, started as soon as the page is read: a page read ahead
   * is screened on the threads while the event loop clusters and writes the page before it.
   */
  screening: Promise<RulesOutput[]>;
}

const emptyReport = (): PostprocessReport => ({ processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 });

/**
 * Post-processing of finished conversations: the language of every message, the deterministic
 * personal-data rules on every message, and, when a model is configured, one structured call for
 * topics and the personal data rules cannot see. Either layer flagging a conversation excludes it
 * whole from the exports (docs/privacy.md). A conversation is `done` only when every configured
 * layer answered; a model failure is retried with backoff, then the conversation is `failed`.
 */
export class PostprocessService {
  /**
   * Every unvoted duel last changed before this instant is settled (annotated, or not idle yet —
   * and then it changes again before it needs anything). Passes after the first look only at the
   * queue and at the unvoted duels changed since; the first pass looks at every duel.
   */
  private settledUntil: number | undefined;
  /** Where the first pass's sweep over every duel stands, between its pages. */
  private sweep: SweepPosition | undefined;
  /** Where this service's pages spent their time, stage by stage (the CLI prints it). */
  readonly stages = new StageTimes();
  /** The stored clusters' band keys, in memory for this instance's pages (built on the first). */
  private readonly clusterIndex: PromptClusterIndex;
  private readonly firstSweep: FirstSweepProgress;

  constructor(
    private readonly store: Store,
    private readonly rules: RulesLayer,
    private readonly annotator: ConversationAnnotator | undefined,
    private readonly runtime: Runtime,
    private readonly options: PostprocessOptions,
  ) {
    this.clusterIndex = new PromptClusterIndex(store.promptClusters);
    this.firstSweep = new FirstSweepProgress(runtime, options.progressLog, options.progressEveryMs);
  }

  /** Starts the rules layer's threads and loads their detectors now rather than with the first page. */
  async warmUp(): Promise<void> {
    await this.rules.warmUp();
  }

  /** Stops the rules layer's threads. */
  async close(): Promise<void> {
    await this.rules.close();
  }

  get modelConfigured(): boolean {
    return this.annotator !== undefined;
  }

  /**
   * Annotates up to `limit` due conversations, `concurrency` at a time. `finishedBefore` overrides
   * the idle rule (a backfill treats every duel not streaming as finished).
   */
  async runDue(limit: number, finishedBefore?: Date): Promise<PostprocessReport> {
    await this.firstSweep.start(() => {
      const now = this.runtime.now();
      const idleBefore = finishedBefore ?? new Date(now.getTime() - this.options.idleMs);
      return this.store.annotations.countDue({
        now: now.toISOString(),
        idleBefore: idleBefore.toISOString(),
        modelConfigured: this.modelConfigured,
      });
    });
    const report = await this.annotatePage(await this.readPage(limit, finishedBefore));
    this.firstSweep.advance(report.processed, this.settledUntil !== undefined);
    return report;
  }

  /**
   * Passes of `batch` conversations until one finds nothing due or `limit` are done (a backfill,
   * `finishedBefore` read at each pass), each reported to `onPass`. In the first sweep over the store the next page is read while the
   * rules threads screen the current one, so that the store and the threads work at the same time
   * (the sweep's keyset puts the next page after this one; later passes read only after a write,
   * as a page's conversations stay due until it is stored).
   */
  async runUntilDone(batch: number, limit: number, finishedBefore: () => Date, onPass: (report: PostprocessReport) => void): Promise<void> {
    let processed = 0;
    let ahead: Promise<DuePage> | undefined;
    for (;;) {
      const size = Math.min(batch, limit - processed);
      if (size <= 0) return;
      const page = await (ahead ?? this.readPage(size, finishedBefore()));
      const nextSize = Math.min(batch, limit - processed - page.due.length);
      ahead = page.sweeping && page.due.length === page.limit && nextSize > 0 ? this.readPage(nextSize, finishedBefore()) : undefined;
      // A failed read ahead is this loop's error, raised when its turn comes (not an unhandled rejection meanwhile).
      ahead?.catch(() => {});
      const report = await this.annotatePage(page);
      processed += report.processed;
      onPass(report);
      // Conversations put back for a retry come due again at once, so only an empty pass ends it.
      if (report.processed === 0) return;
    }
  }

  /** The next page of due conversations, read with their messages (one read for the whole page). */
  private readPage(limit: number, finishedBefore?: Date): Promise<DuePage> {
    return this.stages.time('read', () => this.readDuePage(limit, finishedBefore));
  }

  private async readDuePage(limit: number, finishedBefore?: Date): Promise<DuePage> {
    const now = this.runtime.now();
    const idleBefore = finishedBefore ?? new Date(now.getTime() - this.options.idleMs);
    const sweeping = this.settledUntil === undefined;
    const due = await this.store.annotations.listDue({
      now: now.toISOString(),
      idleBefore: idleBefore.toISOString(),
      modelConfigured: this.modelConfigured,
      idleSince: sweeping ? undefined : new Date(this.settledUntil!).toISOString(),
      after: sweeping ? this.sweep : undefined,
      limit,
    });
    if (sweeping) this.sweep = due.at(-1)?.sweepPosition ?? this.sweep;
    const conversations = await this.store.duels.listConversations(due.map((conversation) => conversation.duelId));
    const read = due.map((conversation) =>
      completeTurns(conversations.get(conversation.duelId)!, conversation.annotation?.promptCluster == null),
    );
    const screening = this.rules.screen(read.map((conversation) => conversation.input));
    // A failed screening is raised where the page is annotated, not as an unhandled rejection meanwhile.
    screening.catch(() => {});
    return { now, idleBefore, limit, sweeping, due, read, screening };
  }

  /** The rules layer for the whole page at once (on its threads, when it has some), then the model layer, then one write. */
  private async annotatePage({ now, idleBefore, limit, due, read, screening }: DuePage): Promise<PostprocessReport> {
    const report = emptyReport();
    const screened = await this.stages.time('rules', () => screening);
    const clusters = await this.stages.time('clusters', () =>
      assignPromptClusters(
        this.clusterIndex,
        due.map((conversation, index) => ({
          duelId: conversation.duelId,
          previous: conversation.annotation?.promptCluster,
          firstPrompt: read[index]!.complete[0]?.prompt,
          signed: screened[index]!.signed,
        })),
        now,
      ),
    );
    const withoutModel: ConversationAnnotation[] = [];
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const index = next++;
        const { outcome, flagged } = await this.annotate(
          due[index]!,
          read[index]!.complete,
          { ...screened[index]!, cluster: clusters[index]! },
          (annotation) => withoutModel.push(annotation),
        );
        report.processed += 1;
        report[outcome] += 1;
        if (flagged) report.flagged += 1;
      }
    };
    await this.stages.time('annotate', () => Promise.all(Array.from({ length: Math.min(this.options.concurrency, due.length) }, worker)));
    // A few statements per page rather than three per conversation (each a round trip on PostgreSQL).
    await this.stages.time('write', () => this.saveStamped(withoutModel));
    // A partial page means nothing else was due: every duel changed before the idle limit and
    // committed by now is settled. A commit may come up to LATE_COMMIT_MARGIN_MS after its stamp,
    // which matters only when the idle limit is that close to now.
    if (due.length < limit) {
      this.sweep = undefined;
      this.settledUntil = Math.max(
        this.settledUntil ?? Number.NEGATIVE_INFINITY,
        Math.min(idleBefore.getTime(), now.getTime() - LATE_COMMIT_MARGIN_MS),
      );
    }
    return report;
  }

  /**
   * Stores annotations stamped with the time of the write, not of the work: readers that follow
   * changes by `updated_at` (the live leaderboard) then see each one within a commit's delay of its
   * stamp, however long its model call or its page took.
   */
  private async saveStamped(annotations: readonly ConversationAnnotation[]): Promise<void> {
    const updatedAt = this.runtime.now().toISOString();
    await this.store.annotations.saveAnnotated(annotations.map((annotation) => ({ ...annotation, updatedAt })));
  }

  /**
   * Annotates one conversation; never throws for a model failure. An annotation made without a
   * model call goes to `saveLater` (the pass stores them together), one with a model call is stored
   * at once, as soon as the call answered.
   */
  private async annotate(
    conversation: DueConversation,
    complete: readonly AnnotatedTurn[],
    rules: RulesOutput & { cluster: string },
    saveLater: (annotation: ConversationAnnotation) => void,
  ): Promise<AnnotateOutcome> {
    const previous = conversation.annotation;
    const now = this.runtime.now();
    const base = rulesAnnotation(conversation, complete, rules, now);
    // Without an annotation model, the topics the source gave (compar:IA's) or an earlier model wrote stay.
    if (!this.annotator && previous?.modelId) {
      base.categories = previous.categories;
      base.keywords = previous.keywords;
      base.shortSummary = previous.shortSummary;
      base.capabilities = withEarlierModelLabels(new Set(rules.ruleLabels), previous.capabilities);
    }
    if (!this.annotator || complete.length === 0) {
      saveLater(
        complete.length === 0 && this.annotator
          ? { ...base, modelStatus: 'done', modelId: this.annotator.modelId, piiModelKinds: [], categories: [], keywords: [] }
          : base,
      );
      return { outcome: 'done', flagged: base.containsPii === true };
    }
    return this.annotateWithModel(this.annotator, base, complete, rules, now);
  }

  /**
   * The model layer on a conversation the rules layer annotated (`base`), stored at once: its topics
   * and personal data, or, when the call fails, another try after a backoff, or `failed` when out of tries.
   */
  private async annotateWithModel(
    annotator: ConversationAnnotator,
    base: ConversationAnnotation,
    complete: readonly AnnotatedTurn[],
    { ruleKinds, ruleLabels }: Pick<RulesOutput, 'ruleKinds' | 'ruleLabels'>,
    now: Date,
  ): Promise<AnnotateOutcome> {
    let topics: ConversationTopics;
    try {
      topics = await annotator.annotate(complete);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const outOfTries = base.attempts >= this.options.maxAttempts;
      const delay = this.options.retryDelayMs * 2 ** (base.attempts - 1);
      await this.saveStamped([
        {
          ...base,
          status: outOfTries ? 'failed' : 'pending',
          lastError: message.slice(0, 500),
          nextAttemptAt: outOfTries ? null : new Date(now.getTime() + delay).toISOString(),
          modelStatus: outOfTries ? 'failed' : 'pending',
          modelId: annotator.modelId,
          annotatedAt: null,
        },
      ]);
      return { outcome: outOfTries ? 'failed' : 'retrying', flagged: false };
    }
    // The summary and keywords are published: rules screen them as well as the messages.
    const publishedKinds = [topics.shortSummary, ...topics.keywords].flatMap((text) => screenText(text).kinds);
    const allRuleKinds = [...new Set([...ruleKinds, ...publishedKinds])];
    const containsPii = allRuleKinds.length > 0 || topics.personalData.found;
    await this.saveStamped([
      {
        ...base,
        piiRuleKinds: allRuleKinds,
        piiModelKinds: topics.personalData.kinds,
        containsPii,
        modelStatus: 'done',
        modelId: annotator.modelId,
        categories: topics.categories,
        keywords: topics.keywords,
        shortSummary: topics.shortSummary,
        capabilities: combineCapabilities(new Set(ruleLabels), topics.capabilities),
      },
    ]);
    return { outcome: 'done', flagged: containsPii };
  }
}

/** What annotating one conversation came to, for the pass's report. */
interface AnnotateOutcome {
  outcome: 'done' | 'retrying' | 'failed';
  flagged: boolean;
}

/**
 * A conversation's annotation from the rules layer alone (`done`, no model): its languages, each
 * message's, and the personal data the rules found; this attempt counts after a pending one's.
 */
function rulesAnnotation(
  conversation: DueConversation,
  complete: readonly AnnotatedTurn[],
  rules: RulesOutput & { cluster: string },
  now: Date,
): ConversationAnnotation {
  const previous = conversation.annotation;
  const messageLanguages: TurnLanguages[] = complete.map((_, index) => ({
    prompt: rules.messageLanguages[index * 3]!,
    a: rules.messageLanguages[index * 3 + 1]!,
    b: rules.messageLanguages[index * 3 + 2]!,
  }));
  return {
    duelId: conversation.duelId,
    status: 'done',
    attempts: (previous?.status === 'pending' ? previous.attempts : 0) + 1,
    lastError: null,
    nextAttemptAt: null,
    turnsAnnotated: conversation.turnCount,
    languages: rules.languages,
    messageLanguages,
    piiRuleKinds: rules.ruleKinds,
    piiModelKinds: null,
    containsPii: rules.ruleKinds.length > 0,
    modelStatus: 'not_configured',
    modelId: null,
    categories: null,
    keywords: null,
    shortSummary: null,
    // The rules' labels; the model's are added when it answers (annotateWithModel).
    capabilities: combineCapabilities(new Set(rules.ruleLabels), undefined),
    promptCluster: rules.cluster,
    annotatedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/**
 * The complete turns of a conversation (both sides answered), and what the rules layer reads of it:
 * every prompt, failed turns' included (a visitor's personal data there still taints the
 * conversation), and both answers of complete turns.
 */
function completeTurns(
  { turns, sides }: { turns: readonly TurnRecord[]; sides: readonly TurnSideRecord[] },
  needsCluster: boolean,
): {
  complete: AnnotatedTurn[];
  input: RulesInput;
} {
  const complete: AnnotatedTurn[] = [];
  for (const turn of turns) {
    if (turn.status !== 'complete') continue;
    const a = sides.find((side) => side.turn === turn.turn && side.side === 'a');
    const b = sides.find((side) => side.turn === turn.turn && side.side === 'b');
    if (a && b) complete.push({ prompt: turn.prompt, a: a.text, b: b.text });
  }
  return {
    complete,
    input: {
      screened: [...turns.map((turn) => turn.prompt), ...complete.flatMap((turn) => [turn.a, turn.b])],
      messages: complete.flatMap((turn) => [turn.prompt, turn.a, turn.b]),
      prompts: complete.map((turn) => turn.prompt),
      ...(needsCluster && complete[0] ? { clusterPrompt: complete[0].prompt } : {}),
    },
  };
}
