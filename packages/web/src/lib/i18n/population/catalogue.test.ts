import { describe, expect, it } from 'vitest';
import { da } from './da';
import { en } from './en';
import { fr } from './fr';
import { lt } from './lt';
import { sv } from './sv';

const placeholders = (message: string) => [...new Set([...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!))].sort();

describe('the population survey messages', () => {
  it.each(Object.entries({ en, da, sv, lt }))(
    '%s keeps the keys and placeholders of each French message, none empty',
    (_code, messages) => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(fr).sort());
      for (const [key, french] of Object.entries(fr)) {
        const text = messages[key as keyof typeof fr];
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(french));
      }
    },
  );
});
