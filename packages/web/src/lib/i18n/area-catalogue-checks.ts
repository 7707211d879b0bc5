import { expect, it } from 'vitest';

const placeholders = (message: string) => [...new Set([...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!))].sort();

/** Each language of an area keeps the keys and placeholders of its French messages, none empty (called inside a `describe`). */
export function itKeepsTheFrenchKeys<Key extends string>(fr: Record<Key, string>, others: Record<string, Record<Key, string>>): void {
  it.each(Object.entries(others))('%s keeps the keys and placeholders of each French message, none empty', (_code, messages) => {
    expect(Object.keys(messages).sort()).toEqual(Object.keys(fr).sort());
    for (const [key, french] of Object.entries(fr) as [Key, string][]) {
      const text = messages[key];
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(placeholders(french));
    }
  });
}
