import { afterAll, describe, expect, it, vi } from 'vitest';
import { da } from './da';
import { en } from './en';
import { fr, type Messages } from './fr';
import { lt } from './lt';
import { sv } from './sv';

// index.svelte.ts creates its store with the `$state` rune, which only the Svelte compiler knows and the
// unit tests do not run through: a stand-in returning the initial value lets the module load here.
vi.stubGlobal(
  '$state',
  Object.assign(<T>(initial: T): T => initial, { raw: <T>(initial: T): T => initial }),
);
const { LANGUAGES, pickLocale } = await import('./index.svelte');
const CATALOGUES = Object.fromEntries(
  await Promise.all(Object.entries(LANGUAGES).map(async ([code, language]) => [code, await language.load()] as const)),
);
afterAll(() => {
  vi.unstubAllGlobals();
});

/** The `{name}` placeholders of a message, each once, sorted. */
function placeholders(message: string): string[] {
  return [...new Set([...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!))].sort();
}

const frKeys = Object.keys(fr).sort();

describe('message catalogues', () => {
  it('registers every catalogue file', () => {
    expect(CATALOGUES).toEqual({ fr, en, da, sv, lt });
  });

  it.each(Object.entries(CATALOGUES))('%s has the keys of the French catalogue', (_locale, messages: Messages) => {
    expect(Object.keys(messages).sort()).toEqual(frKeys);
  });

  it.each(Object.entries(CATALOGUES))('%s has a non-empty text for every key', (_locale, messages: Messages) => {
    const empty = Object.entries(messages).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
    expect(empty).toEqual([]);
  });

  it.each(Object.entries(CATALOGUES))('%s keeps the placeholders of each French message', (_locale, messages: Messages) => {
    const mismatched = Object.entries(fr).flatMap(([key, french]) => {
      const found = placeholders(messages[key as keyof Messages] ?? '');
      return found.join() === placeholders(french).join() ? [] : [{ key, expected: placeholders(french), found }];
    });
    expect(mismatched).toEqual([]);
  });

  it('names each language in that language, the same in the picker as in its catalogue', () => {
    const names = Object.values(CATALOGUES).map((messages) => messages['meta.language_name']);
    expect(new Set(names).size).toBe(names.length);
    for (const [code, language] of Object.entries(LANGUAGES)) expect(language.name).toBe(CATALOGUES[code]!['meta.language_name']);
  });
});

describe('pickLocale', () => {
  it('picks Danish, Swedish and Lithuanian from the browser tags', () => {
    expect(pickLocale(['da-DK'])).toBe('da');
    expect(pickLocale(['sv-SE', 'en-GB'])).toBe('sv');
    expect(pickLocale(['LT-lt'])).toBe('lt');
    expect(pickLocale(['de-DE', 'lt', 'fr'])).toBe('lt');
    expect(pickLocale(['sv-FI'])).toBe('sv');
  });

  it('falls back to French when no language is supported', () => {
    expect(pickLocale(['de-DE', 'nb-NO'])).toBe('fr');
    expect(pickLocale([])).toBe('fr');
  });
});
