import type { DuelMode, Reveal, Side, Tag, VoteChoice } from '@agora/contract';
import { ApiError, api, streamTurn } from '../api/client';
import { takeProof } from '../api/proof-of-work';
import { renderMarkdown } from '../utils/markdown';
import { BlockSplitter } from '../utils/stream-blocks';

export interface Block {
  key: number;
  html: string;
}

export interface PaneState {
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
}

export type DuelPhase = 'idle' | 'starting' | 'streaming' | 'ready' | 'failed' | 'voting' | 'revealed';

interface DuelRequest {
  prompt: string;
  mode: DuelMode;
  models?: string[];
  locale?: string;
}

const emptyPane = (): PaneState => ({ blocks: [], tail: '', reasoning: '', done: false, outputTokens: null });
const emptyReaction = (): ReactionState => ({ value: null, tags: [], comment: '', saved: false });
let blockKeys = 0;

/** One duel's state, as rune state: created, streamed turn by turn, reacted to, voted, revealed. */
export class DuelManager {
  id = $state<string | null>(null);
  phase = $state<DuelPhase>('idle');
  turns = $state<TurnState[]>([]);
  failure = $state<{ code: string; message: string; retryable: boolean; retryAfterS?: number } | null>(null);
  reveal = $state<{ a: Reveal; b: Reveal } | null>(null);
  choice = $state<VoteChoice | null>(null);
  private request: DuelRequest | null = null;
  private controller: AbortController | null = null;

  get busy(): boolean {
    return this.phase === 'starting' || this.phase === 'streaming' || this.phase === 'voting';
  }

  get canVote(): boolean {
    return this.phase === 'ready' && this.turns.length > 0 && this.turns.every((turn) => turn.status === 'complete');
  }

  async start(request: DuelRequest): Promise<void> {
    this.reset();
    this.request = request;
    this.phase = 'starting';
    try {
      const created = await this.createDuel(request);
      this.id = created.id;
      await this.streamTurn(created.turn, request.prompt);
    } catch (error) {
      this.fail(error);
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

  async followUp(prompt: string): Promise<void> {
    if (!this.id || this.phase !== 'ready') return;
    this.phase = 'starting';
    try {
      const created = await api.followUp(this.id, prompt);
      await this.streamTurn(created.turn, prompt);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Starts a new duel with the same first prompt and mode (a failed duel cannot be continued). */
  retry(): Promise<void> {
    return this.request ? this.start(this.request) : Promise.resolve();
  }

  reset(): void {
    this.controller?.abort();
    this.controller = null;
    this.id = null;
    this.phase = 'idle';
    this.turns = [];
    this.failure = null;
    this.reveal = null;
    this.choice = null;
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
      this.failure = {
        code: error instanceof ApiError ? error.code : 'network',
        message: String((error as Error).message),
        retryable: true,
      };
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
      this.reveal = answer.reveal;
      this.phase = 'revealed';
    } catch (error) {
      this.phase = 'ready';
      this.failure = {
        code: error instanceof ApiError ? error.code : 'network',
        message: String((error as Error).message),
        retryable: false,
      };
    }
  }

  private async streamTurn(turnNumber: number, prompt: string): Promise<void> {
    const turn: TurnState = {
      turn: turnNumber,
      prompt,
      status: 'streaming',
      a: emptyPane(),
      b: emptyPane(),
      reactions: { a: emptyReaction(), b: emptyReaction() },
    };
    this.turns.push(turn);
    const state = this.turns[this.turns.length - 1]!;
    this.phase = 'streaming';
    const splitters = { a: new BlockSplitter(), b: new BlockSplitter() };
    const addBlocks = (side: Side, sources: string[]) => {
      for (const source of sources) state[side].blocks.push({ key: (blockKeys += 1), html: renderMarkdown(source) });
    };
    this.controller = new AbortController();
    const status = await streamTurn(
      this.id!,
      turnNumber,
      {
        text: (side, text) => {
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
          this.failure = failure;
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
    if (status === 'failed') {
      this.failure ??= { code: 'turn_failed', message: 'the turn failed', retryable: true };
      this.phase = 'failed';
    } else {
      this.phase = 'ready';
    }
  }

  private fail(error: unknown): void {
    if ((error as Error)?.name === 'AbortError') return;
    const code = error instanceof ApiError ? error.code : 'network';
    this.failure = {
      code,
      message: error instanceof Error ? error.message : String(error),
      retryable: true,
      ...(error instanceof ApiError && error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
    };
    const current = this.turns.at(-1);
    if (current && current.status === 'streaming') current.status = 'failed';
    this.phase = 'failed';
  }
}
