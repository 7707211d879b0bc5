import { describe, expect, it } from 'vitest';
import { conversationLanguage } from '../domain/language/conversation-language';
import { normaliseLanguageCode } from '../domain/language/language-codes';
import { codePoints, createLanguageDetector } from './language-detector';

describe('normaliseLanguageCode', () => {
  it.each([
    ['fr', 'fr'],
    ['zh-Hant', 'zh'],
    ['iw', 'he'],
    ['jw', 'jv'],
    ['haw', 'haw'],
    ['un', 'und'],
    ['xx-Qaai', 'und'],
    ['', 'und'],
    [undefined, 'und'],
  ])('%s → %s', (code, expected) => expect(normaliseLanguageCode(code)).toBe(expected));
});

describe('conversationLanguage', () => {
  it('takes the language with the most characters, ignoring und', () => {
    const messages = [
      { language: 'fr', characters: 40 },
      { language: 'en', characters: 30 },
      { language: 'en', characters: 20 },
      { language: 'und', characters: 500 },
    ];
    expect(conversationLanguage(messages)).toBe('en');
  });

  it('breaks ties by the earliest message and is und without any language', () => {
    expect(
      conversationLanguage([
        { language: 'de', characters: 10 },
        { language: 'fr', characters: 10 },
      ]),
    ).toBe('de');
    expect(conversationLanguage([{ language: 'und', characters: 10 }])).toBe('und');
    expect(conversationLanguage([])).toBe('und');
  });
});

describe('createLanguageDetector', () => {
  const detector = createLanguageDetector();

  it.each([
    ['fr', 'Bonjour, pouvez-vous m’aider à écrire une lettre de motivation ?'],
    ['en', 'Could you help me write a cover letter for a nursing job?'],
    ['oc', 'Lo gat es sus la taula e manja de peis.'],
    ['fr', 'Bonjour'],
    ['und', '12345 !!'],
    ['und', '   '],
  ])('detects %s', async (expected, text) => expect(await detector.detect(text)).toBe(expected));

  it('labels each message and the conversation by majority of characters', async () => {
    const result = await detector.detectConversation([
      'Peux-tu me résumer la Révolution française en quelques phrases simples ?',
      'Sure: in 1789 the Estates-General met and the monarchy fell.',
      'Merci, et maintenant en français, avec les dates importantes de la période, s’il te plaît.',
    ]);
    expect(result).toEqual({ messages: ['fr', 'en', 'fr'], conversation: 'fr', languages: ['fr', 'en'] });
  });
});

describe('a message’s characters, as the conversation’s majority weighs them', () => {
  it('counts code points as spreading the string does: a surrogate pair is one, a lone surrogate one', () => {
    for (const text of ['', 'a', 'héllo 日本', '😀', '😀😀x', '\uD800\uD800\uDC00', '\uDC00\uD800', 'x\uD800', '\uD800\uDC00\uDC00'])
      expect(codePoints(text)).toBe([...text].length);
    expect(codePoints('😀😀x')).toBe(3);
  });
});
