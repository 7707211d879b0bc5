import { describe, expect, it } from 'vitest';
import { ArenaEvents } from './arena-events';

describe('the arena events', () => {
  it('calls the handlers of an event in the order they subscribed, with its payload, and no other event', () => {
    const seen: string[] = [];
    const events = new ArenaEvents(() => {});
    events.on('conversations.screened', ({ done }) => seen.push(`first ${done}`));
    events.on('vote.recorded', () => seen.push('vote'));
    events.on('conversations.screened', ({ done }) => seen.push(`second ${done}`));
    events.emit('conversations.screened', { done: 3 });
    expect(seen).toEqual(['first 3', 'second 3']);
  });

  it('logs a failing handler, runs the next ones, and never throws to the emitter', () => {
    const logged: string[] = [];
    const seen: string[] = [];
    const events = new ArenaEvents((message) => logged.push(message));
    events.on('vote.recorded', () => {
      throw new Error('a job could not start');
    });
    events.on('vote.recorded', () => seen.push('next'));
    expect(() => events.emit('vote.recorded')).not.toThrow();
    expect(seen).toEqual(['next']);
    expect(logged).toEqual(['a handler of vote.recorded failed']);
  });
});
