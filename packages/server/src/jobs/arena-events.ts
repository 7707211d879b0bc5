/**
 * What happens in the arena that background work waits for, and what each event carries. The jobs
 * declare which events start them (`JobPlan.on`); `agora jobs` prints who listens to what.
 */
export interface ArenaEventMap {
  /** A visitor's vote was acknowledged (stored). */
  'vote.recorded': undefined;
  /** A post-processing pass finished screening conversations (their languages and topics feed the leaderboard's views). */
  'conversations.screened': { done: number };
  /** A new leaderboard was computed or loaded (the pairing policy follows it). */
  'leaderboard.refreshed': undefined;
}

export type ArenaEventName = keyof ArenaEventMap;

/** Every event, in the order `agora jobs` lists them. */
export const ARENA_EVENTS = [
  'vote.recorded',
  'conversations.screened',
  'leaderboard.refreshed',
] as const satisfies readonly ArenaEventName[];

/** Who listens to an event besides the jobs (a service that follows it), for `agora jobs`. */
export const SERVICE_LISTENERS: Readonly<Partial<Record<ArenaEventName, readonly string[]>>> = {
  'leaderboard.refreshed': ['the pairing policy (it draws from the latest overall board: composition/arena-services.ts)'],
};

type Handler<Name extends ArenaEventName> = (payload: ArenaEventMap[Name]) => void;

/**
 * The arena's events, within one process. Handlers run at once, in the order they subscribed, and
 * only start work (a job's trigger): a handler's error is logged and never reaches the emitter (a
 * vote is acknowledged whatever a job does with it).
 */
export class ArenaEvents {
  private readonly handlers = new Map<ArenaEventName, Array<Handler<ArenaEventName>>>();

  constructor(private readonly logError: (message: string, error: unknown) => void) {}

  on<Name extends ArenaEventName>(name: Name, handler: Handler<Name>): void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<ArenaEventName>);
    this.handlers.set(name, list);
  }

  emit<Name extends ArenaEventName>(name: Name, ...payload: ArenaEventMap[Name] extends undefined ? [] : [ArenaEventMap[Name]]): void {
    for (const handler of this.handlers.get(name) ?? []) {
      try {
        handler(payload[0]);
      } catch (error) {
        this.logError(`a handler of ${name} failed`, error);
      }
    }
  }
}
