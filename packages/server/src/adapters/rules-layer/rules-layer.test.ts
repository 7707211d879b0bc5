import { afterAll, describe, expect, it } from 'vitest';
import { createLanguageDetector } from '../language-detector';
import { type RulesInput, inlineRulesLayer } from './rules-layer';
import { ThreadedRulesLayer } from './threaded-rules-layer';

const conversations: RulesInput[] = Array.from({ length: 23 }, (_, index) => {
  const prompt =
    index % 5 === 0 ? `Écrivez-moi à jeanne.dupont${index}@example.fr pour la suite.` : `Explique-moi la photosynthèse, question ${index}.`;
  const answer =
    index % 3 === 0
      ? 'The light reactions happen in the thylakoid membranes of the chloroplast.'
      : 'La photosynthèse transforme la lumière en énergie chimique dans les chloroplastes.';
  return { screened: [prompt, answer, answer], messages: [prompt, answer, answer] };
});

describe('the rules layer on worker threads', () => {
  const threaded = new ThreadedRulesLayer(2);
  afterAll(() => threaded.close());

  it('starts every thread when warmed up, and screens on them after', async () => {
    await threaded.warmUp();
    expect((threaded as unknown as { workers: unknown[] | undefined }).workers).toHaveLength(2);
  });

  it('finds what the rules find in this thread, conversation for conversation, in order', async () => {
    const expected = await inlineRulesLayer(createLanguageDetector()).screen(conversations);
    expect(expected.filter((output) => output.ruleKinds.includes('email'))).toHaveLength(5);
    expect(new Set(expected.map((output) => output.languages[0]))).toEqual(new Set(['fr', 'en']));
    expect(await threaded.screen(conversations)).toEqual(expected);
    // Again, on the threads already started, and with fewer conversations than threads.
    expect(await threaded.screen(conversations.slice(0, 1))).toEqual(expected.slice(0, 1));
    expect(await threaded.screen([])).toEqual([]);
  });
});
