import { CAPABILITY_LABELS as CONTRACT_LABELS } from '@agora/contract';
import { describe, expect, it } from 'vitest';
import { capabilitiesOfModelAnswer } from './capability-answer';
import { isCodePrompt, isMathPrompt, ruleCapabilities } from './capability-rules';
import {
  CAPABILITY_LABELS,
  capabilityCategory,
  capabilityOfCategory,
  combineCapabilities,
  isHardPrompt,
  normaliseCapabilities,
  rankingCategories,
} from './capabilities';

describe('code rule', () => {
  it.each([
    ['en', 'Fix this:\n```js\nconst x = [1,2].map(n => n * 2)\n```'],
    ['fr', 'Écris une fonction Rust qui lit un fichier ligne par ligne.'],
    ['da', 'Hvorfor virker min kode ikke? def beregn(x):\n    return x *'],
    ['sv', 'Hur skriver jag en SQL-fråga som räknar rader per kund?'],
    ['lt', 'Kodėl mano programavimo užduotis meta klaidą: TypeError: x is not a function'],
  ])('finds code in %s', (_language, prompt) => expect(isCodePrompt(prompt)).toBe(true));

  it.each([
    ['en', 'Recommend a TV program about birds.'],
    ['fr', 'Quel est le code postal de Lyon 3e ?'],
    ['da', 'Hvad skal jeg se i København en weekend?'],
    ['sv', 'Vad kostar ett månadskort i Stockholm?'],
    ['lt', 'Kur Kaune skaniausi cepelinai?'],
  ])('finds no code in %s', (_language, prompt) => expect(isCodePrompt(prompt)).toBe(false));
});

describe('math rule', () => {
  it.each([
    ['en', 'Differentiate sin(x)·cos(x).'],
    ['fr', 'Résous 4x - 2 = 10.'],
    ['da', 'Hvad er sandsynligheden for to plat i træk?'],
    ['sv', 'Lös ekvationen x^2 = 49.'],
    ['lt', 'Apskaičiuokite 12 procentų nuo 250 eurų.'],
  ])('finds math in %s', (_language, prompt) => expect(isMathPrompt(prompt)).toBe(true));

  it.each([
    ['en', 'The meeting is on 2025-03-14 at 10:30, can you write the invitation?'],
    ['fr', 'Donne-moi une recette pour 4 personnes.'],
    ['da', 'Hvornår blev Danmark medlem af EU?'],
    ['sv', 'Skriv en dikt om hösten, i 3 strofer.'],
    ['lt', 'Ką veikti Vilniuje 2 dienas?'],
    ['code only', '```python\nx = 3 + 4\n```'],
  ])('finds no math in %s', (_language, prompt) => expect(isMathPrompt(prompt)).toBe(false));
});

describe('multi-turn and long-query rules', () => {
  it('labels two turns or more multi-turn, and 2,000 characters over all prompts a long query', () => {
    expect(ruleCapabilities(['Bonjour'])).toEqual(new Set());
    expect(ruleCapabilities(['Hej', 'Tak'])).toEqual(new Set(['multi_turn']));
    expect(ruleCapabilities(['a'.repeat(1999)]).has('long_query')).toBe(false);
    expect(ruleCapabilities(['a'.repeat(1000), 'b'.repeat(1000)]).has('long_query')).toBe(true);
  });
});

describe("the model's capability answer", () => {
  const all = (value: boolean) =>
    `{"specificity": ${value}, "domain_knowledge": ${value}, "complexity": ${value}, "problem_solving": ${value}, "creativity": ${value}, "technical_accuracy": ${value}, "real_world_application": ${value}, "creative_writing": false, "instruction_following": ${value}}`;

  it('reads a whole answer, in a fence, nested in the topics object', () => {
    const answer = capabilitiesOfModelAnswer('```json\n{"categories": ["Arts"], "capabilities": ' + all(true) + '}\n```');
    expect(answer?.instruction_following).toBe(true);
    expect(answer?.creative_writing).toBe(false);
    expect(isHardPrompt(answer!)).toBe(true);
  });

  it('keeps the labels of an answer cut off mid-object, and says "unknown" for hardness while 6 remain reachable', () => {
    const cut = capabilitiesOfModelAnswer('{"capabilities": {"specificity": true, "domain_knowledge": true, "complexity": fal');
    expect(cut).toEqual({ specificity: true, domain_knowledge: true });
    expect(isHardPrompt(cut!)).toBeUndefined();
    const notHard = capabilitiesOfModelAnswer('{"capabilities": {"specificity": false, "domain_knowledge": false, "complexity"');
    expect(isHardPrompt(notHard!)).toBe(false);
  });

  it('gives nothing for a refusal or prose, and reads yes/no in words, keeping the first value of a key', () => {
    expect(capabilitiesOfModelAnswer("I'm sorry, I can't help with that.")).toBeUndefined();
    expect(capabilitiesOfModelAnswer('{"categories": ["Sports"]}')).toBeUndefined();
    expect(capabilitiesOfModelAnswer('{"creativity": "yes", "complexity": "no", "creativity": false, "colour": true}')).toEqual({
      creativity: true,
      complexity: false,
    });
  });

  it('needs 6 of the 7 criteria for hard, as LMArena counts', () => {
    const five = { specificity: true, domain_knowledge: true, complexity: true, problem_solving: true, creativity: true };
    expect(isHardPrompt({ ...five, technical_accuracy: false, real_world_application: false })).toBe(false);
    expect(isHardPrompt({ ...five, technical_accuracy: true, real_world_application: false })).toBe(true);
  });
});

describe('combining and carrying labels', () => {
  it("orders labels, adds the model's only when it answered, and hard only at 6 criteria", () => {
    expect(combineCapabilities(new Set(['math', 'multi_turn']), undefined)).toEqual(['math', 'multi_turn']);
    expect(combineCapabilities(new Set(['code']), { creative_writing: true, specificity: true })).toEqual([
      'specificity',
      'creative_writing',
      'code',
    ]);
  });

  it('carries labels as categories in their own namespace, and reads them back', () => {
    expect(rankingCategories(['Sports'], ['code', 'bogus', 'code'])).toEqual(['Sports', 'capability:code']);
    expect(rankingCategories(null, null)).toBeNull();
    expect(rankingCategories(null, [])).toBeNull();
    expect(capabilityOfCategory(capabilityCategory('hard_prompt'))).toBe('hard_prompt');
    expect(capabilityOfCategory('Sports')).toBeUndefined();
    expect(capabilityOfCategory('capability:nothing')).toBeUndefined();
    expect(normaliseCapabilities(['math', 'code', 'x'])).toEqual(['code', 'math']);
  });
});

describe('the contract', () => {
  it('lists the same labels in the same order as the domain', () => {
    expect([...CONTRACT_LABELS]).toEqual([...CAPABILITY_LABELS]);
  });
});
