import type { DuelMode, Reveal, Side, Tag, Transcript, TurnVerdict, VoteChoice } from '@agora/contract';
import { ApiError, api, streamTurn } from '../api/client';
import { takeProof } from '../api/proof-of-work';
import { type Failure, causeOfApiError } from '../utils/failures';
import { loadHighlighter, renderMarkdown } from '../utils/markdown';
import { BlockSplitter } from '../utils/stream-blocks';

export interface Block {
  key: number;
  html: string;
}

export interface PaneState {
  /** The answer as the model wrote it (Markdown), for "copy the answer". */
  text: string;
  /** Finished paragraphs, rendered once (sanitised HTML). */
  blocks: Block[];
  /** The paragraph being streamed, shown as plain text until it finishes. */
  tail: string;
  reasoning: string;
  done: boolean;
  outputTokens: number | null;
}

export interface ReactionState {
  value: 'like' | 'dislike' | null;
  tags: Tag[];
  comment: string;
  saved: boolean;
}

export interface TurnState {
  turn: number;
  prompt: string;
  status: 'streaming' | 'complete' | 'failed';
  a: PaneState;
  b: PaneState;
  reactions: Record<Side, ReactionState>;
  /** The visitor's verdict on this turn (TurnVerdict.svelte), null until given. */
  verdict: TurnVerdict | null;
}

/**
 * - `failed`: nothing can go on (the first turn failed, or a request was refused): an error card.
 * - `ready`: the duel can be voted on and continued; `notice` may say that the last follow-up failed.
 */
export type DuelPhase = 'idle' | 'starting' | 'streaming' | 'ready' | 'failed' | 'voting' | 'revealed';

export interface DuelRequest {
  prompt: string;
  mode: DuelMode;
  models?: string[];
  locale?: string;
}

/** What the visitor was doing when the failure came: what "try again" sends again. */
type PendingAction = { kind: 'start'; request: DuelRequest } | { kind: 'follow-up'; prompt: string } | { kind: 'stream'; turn: TurnState };

const emptyPane = (): PaneState => ({ text: '', blocks: [], tail: '', reasoning: '', done: false, outputTokens: null });
const emptyReaction = (): ReactionState => ({ value: null, tags: [], comment: '', saved: false });
let blockKeys = 0;
/** A turn with nothing streamed, reacted to or judged yet (`verdict`: one restored from the transcript). */
const newTurn = (turn: number, prompt: string, status: TurnState['status'], verdict: TurnVerdict | null = null): TurnState => ({
  turn,
  prompt,
  status,
  a: emptyPane(),
  b: emptyPane(),
  reactions: { a: emptyReaction(), b: emptyReaction() },
  verdict,
});

/** A failure from an API answer or from no answer at all. */
function failureOf(error: unknown): Failure {
  const status = error instanceof ApiError ? error.status : 0;
  const code = error instanceof ApiError ? error.code : 'network';
  return {
    cause: causeOfApiError(status, code),
    code,
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof ApiError && error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
  };
}

/** One duel's state, as rune state: created, streamed turn by turn, reacted to, voted, revealed; restored from its address. */
export class DuelManager {
  id = $state<string | null>(null);
  phase = $state<DuelPhase>('idle');
  turns = $state<TurnState[]>([]);
  failure = $state<Failure | null>(null);
  /** The last follow-up failed: withheld for both sides, the duel still votable. Its prompt, to send again. */
  failedFollowUp = $state<string | null>(null);
  reveal = $state<{ a: Reveal; b: Reveal } | null>(null);
  choice = $state<VoteChoice | null>(null);
  /** The visitor's own vote tags, shown again with the reveal. */
  votedTags = $state<Record<Side, Tag[]>>({ a: [], b: [] });
  /** Whether the vote counts in the ranking, as the vote's answer said; null when unknown (a duel read again). */
  counted = $state<boolean | null>(null);
  /** The first request of this duel (or of the one that failed to start): its prompt is never lost. */
  request = $state<DuelRequest | null>(null);
  private pending: PendingAction | null = null;
  private controller: AbortController | null = null;

  get busy(): boolean {
    return this.phase === 'starting' || this.phase === 'streaming' || this.phase === 'voting';
  }

  /** Completed turns are a fair duel, even when a later follow-up failed. */
  get completedTurns(): number {
    return this.turns.filter((turn) => turn.status === 'complete').length;
  }

  get canVote(): boolean {
    return this.phase === 'ready' && this.completedTurns > 0 && !this.turns.some((turn) => turn.status === 'streaming');
  }

  /** A duel the visitor would lose by leaving: started, not voted. */
  get unvoted(): boolean {
    return this.id !== null && this.phase !== 'revealed' && this.phase !== 'failed' && this.completedTurns > 0;
  }

  async start(request: DuelRequest): Promise<void> {
    this.reset();
    this.request = request;
    this.pending = { kind: 'start', request };
    this.phase = 'starting';
    // The code highlighter arrives while the models think.
    void loadHighlighter();
    try {
      const created = await this.createDuel(request);
      this.id = created.id;
      await this.streamTurn(this.addTurn(created.turn, request.prompt));
    } catch (error) {
      this.fail(error);
    }
  }

  async followUp(prompt: string): Promise<void> {
    if (!this.id || this.phase !== 'ready') return;
    this.pending = { kind: 'follow-up', prompt };
    this.failedFollowUp = null;
    this.failure = null;
    this.phase = 'starting';
    try {
      const created = await api.followUp(this.id, prompt);
      await this.streamTurn(this.addTurn(created.turn, prompt));
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Sends again what failed: the same first request (a new duel: a failed first turn cannot be
   * continued), the same follow-up, or, when the connection dropped, the same turn's stream, which
   * the server replays from its start.
   */
  async retry(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    if (pending.kind === 'start') return this.start(pending.request);
    this.failure = null;
    if (pending.kind === 'follow-up') {
      this.phase = 'ready';
      return this.followUp(pending.prompt);
    }
    pending.turn.a = emptyPane();
    pending.turn.b = emptyPane();
    pending.turn.status = 'streaming';
    try {
      await this.streamTurn(pending.turn);
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Opens the duel at this address (a reload, a new tab, a shared link of one's own): the turns from
   * the transcript, the vote and reveal when it was voted, and a turn still running streamed on
   * from the store.
   */
  async restore(id: string): Promise<void> {
    this.reset();
    this.id = id;
    this.phase = 'starting';
    let transcript: Transcript;
    try {
      [transcript] = await Promise.all([api.transcript(id), loadHighlighter()]);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.request = { prompt: transcript.turns[0]?.prompt ?? '', mode: transcript.mode };
    this.turns = restoredTurns(transcript);
    if (transcript.vote && transcript.reveal) {
      this.choice = transcript.vote.choice;
      this.votedTags = { a: [...transcript.vote.tags.a], b: [...transcript.vote.tags.b] };
      this.reveal = transcript.reveal;
      this.phase = 'revealed';
      return;
    }
    const running = this.turns.find((turn) => turn.status === 'streaming');
    if (running) {
      this.pending = { kind: 'stream', turn: running };
      try {
        await this.streamTurn(running);
      } catch (error) {
        this.fail(error);
      }
      return;
    }
    if (transcript.status === 'failed') {
      this.failure = { cause: 'model', code: 'duel_failed', message: 'the first turn failed' };
      this.phase = 'failed';
      return;
    }
    const last = this.turns.at(-1);
    if (last?.status === 'failed') this.failedFollowUp = last.prompt;
    this.phase = 'ready';
  }

  reset(): void {
    this.controller?.abort();
    this.controller = null;
    this.id = null;
    this.phase = 'idle';
    this.turns = [];
    this.failure = null;
    this.failedFollowUp = null;
    this.reveal = null;
    this.counted = null;
    this.choice = null;
    this.votedTags = { a: [], b: [] };
    this.pending = null;
  }

  async react(turn: TurnState, side: Side, patch: Partial<Omit<ReactionState, 'saved'>>): Promise<void> {
    if (!this.id) return;
    const reaction = turn.reactions[side];
    Object.assign(reaction, patch, { saved: false });
    if (patch.value !== undefined) reaction.tags = [];
    try {
      await api.react(this.id, {
        side,
        turn: turn.turn,
        value: reaction.value,
        ...(reaction.value ? { tags: [...reaction.tags] } : {}),
        ...(reaction.value && reaction.comment.trim() ? { comment: reaction.comment.trim() } : {}),
      });
      reaction.saved = true;
    } catch (error) {
      // The reaction stays on screen, unsaved; the page says why without ending the duel.
      this.failure = failureOf(error);
    }
  }

  async vote(choice: VoteChoice, tags: Record<Side, Tag[]>, comments: Record<Side, string>): Promise<void> {
    if (!this.id || !this.canVote) return;
    this.phase = 'voting';
    try {
      const body = {
        choice,
        tags: { a: [...tags.a], b: [...tags.b] },
        comments: Object.fromEntries(
          (['a', 'b'] as const).filter((side) => comments[side].trim()).map((side) => [side, comments[side].trim()]),
        ),
      };
      const answer = await api.vote(this.id, body);
      this.choice = choice;
      this.votedTags = body.tags;
      this.reveal = answer.reveal;
      this.counted = answer.counted;
      this.failure = null;
      this.phase = 'revealed';
    } catch (error) {
      this.phase = 'ready';
      this.failure = failureOf(error);
    }
  }

  /** Creates the duel, with a proof of work when the arena asks for one (a refused proof is solved again, once). */
  private async createDuel(request: DuelRequest): Promise<{ id: string; turn: number }> {
    const send = async (proof: Awaited<ReturnType<typeof takeProof>>) => api.createDuel({ ...request, ...(proof ? { proof } : {}) });
    try {
      return await send(await takeProof());
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'proof_required')) throw error;
      return send(await takeProof({ fresh: true }));
    }
  }

  private addTurn(turnNumber: number, prompt: string): TurnState {
    this.turns.push(newTurn(turnNumber, prompt, 'streaming'));
    return this.turns[this.turns.length - 1]!;
  }

  private async streamTurn(state: TurnState): Promise<void> {
    // From here a dropped connection resumes this turn's stream rather than sending the request again.
    this.pending = { kind: 'stream', turn: state };
    this.phase = 'streaming';
    const splitters = { a: new BlockSplitter(), b: new BlockSplitter() };
    const addBlocks = (side: Side, sources: string[]) => {
      for (const source of sources) state[side].blocks.push({ key: (blockKeys += 1), html: renderMarkdown(source) });
    };
    let turnError: Failure | null = null;
    this.controller = new AbortController();
    const status = await streamTurn(
      this.id!,
      state.turn,
      {
        text: (side, text) => {
          state[side].text += text;
          const finished = splitters[side].push(text);
          if (finished.length > 0) addBlocks(side, finished);
          state[side].tail = splitters[side].tail;
        },
        reasoning: (side, text) => {
          state[side].reasoning += text;
        },
        sideEnd: (side, outputTokens) => {
          addBlocks(side, splitters[side].flush());
          state[side].tail = '';
          state[side].done = true;
          state[side].outputTokens = outputTokens;
        },
        error: (failure) => {
          turnError = { cause: 'model', code: failure.code, message: failure.message };
        },
      },
      this.controller.signal,
    );
    for (const side of ['a', 'b'] as const) {
      if (!state[side].done) {
        addBlocks(side, splitters[side].flush());
        state[side].tail = '';
      }
    }
    state.status = status;
    if (status === 'complete') {
      this.phase = 'ready';
      return;
    }
    // A failed turn is withheld for both sides: drop what was streamed of it.
    state.a = emptyPane();
    state.b = emptyPane();
    if (this.completedTurns > 0) {
      // A failed follow-up: the completed turns before it stay a fair duel.
      this.failedFollowUp = state.prompt;
      this.phase = 'ready';
      return;
    }
    this.failure = turnError ?? { cause: 'model', code: 'turn_failed', message: 'the turn failed' };
    // A failed first turn cannot be continued: trying again is a new duel with the same request.
    if (this.request) this.pending = { kind: 'start', request: this.request };
    this.phase = 'failed';
  }

  private fail(error: unknown): void {
    if ((error as Error)?.name === 'AbortError') return;
    this.failure = failureOf(error);
    const current = this.turns.at(-1);
    // A follow-up refused or cut by the network leaves the earlier turns votable.
    if (this.completedTurns > 0) {
      if (current && current.status === 'streaming' && this.failure.cause !== 'network') current.status = 'failed';
      this.phase = 'ready';
      return;
    }
    this.phase = 'failed';
  }
}

/** A whole stored answer as the blocks a live stream would have produced. */
function renderBlocks(text: string): Block[] {
  const splitter = new BlockSplitter();
  return [...splitter.push(text), ...splitter.flush()].map((source) => ({ key: (blockKeys += 1), html: renderMarkdown(source) }));
}

/** A stored transcript's turns as the page shows them: complete answers rendered, the visitor's reactions saved. */
function restoredTurns(transcript: Transcript): TurnState[] {
  return transcript.turns.map((turn) => {
    const verdict = transcript.verdicts?.find((candidate) => candidate.turn === turn.turn)?.verdict ?? null;
    const state = newTurn(turn.turn, turn.prompt, turn.status, verdict);
    if (turn.status === 'complete') {
      for (const side of ['a', 'b'] as const) {
        state[side] = {
          ...emptyPane(),
          text: turn[side].text,
          blocks: renderBlocks(turn[side].text),
          reasoning: turn[side].reasoning ?? '',
          done: true,
        };
      }
    }
    for (const reaction of transcript.reactions.filter((candidate) => candidate.turn === turn.turn)) {
      state.reactions[reaction.side] = { value: reaction.value, tags: [...reaction.tags], comment: reaction.comment ?? '', saved: true };
    }
    return state;
  });
}
