import { describe, expect, it } from 'vitest';
import { clusterPrompts } from './prompt-cluster-index';
import { PROMPT_CLUSTER_THRESHOLD, estimatedJaccard, exactJaccard, normalisePrompt, promptSignature } from './prompt-clusters';

const BASES = [
  'Explique-moi la photosynthèse comme si j’avais dix ans, avec un exemple du jardin.',
  'Quelle est la différence entre un contrat à durée déterminée et un CDI en France ?',
  'Rédige une lettre de motivation pour un poste de boulanger à Lyon.',
  'Write a short poem about the sea in the style of Emily Dickinson.',
  'How do I reverse a linked list in Python without using extra memory?',
  'Summarise the causes of the First World War in five bullet points.',
  'Hvordan laver jeg en god rugbrødsdej, og hvor længe skal den hæve?',
  'Forklar forskellen på en kommune og en region i Danmark.',
  'Hur fungerar det svenska pensionssystemet för någon som är född 1990?',
  'Skriv en kort saga om en älg som vill lära sig simma.',
  'Paaiškink, kaip veikia Lietuvos Seimo rinkimų sistema.',
  'Parašyk trumpą eilėraštį apie rudenį Vilniuje.',
  'Объясни, как работает блокчейн, простыми словами.',
  '日本の四季について短い文章を書いてください。',
  'اشرح لي قانون نيوتن الثاني مع مثال من الحياة اليومية.',
  'What is the capital of France?',
  'What is the capital of Spain?',
  'Write a poem about the sea in the style of Baudelaire.',
  'Write a poem about the mountains in the style of Rimbaud.',
  'Give me a recipe for a vegan chocolate cake without nuts.',
];

/** Light edits a pasted or retyped prompt goes through: each keeps it the same question. */
const EDITS: ((text: string) => string)[] = [
  (text) => text,
  (text) => `  ${text.replace(/ /g, '   ')}  `,
  (text) => text.toUpperCase(),
  // One typo: two neighbouring letters swapped near the middle.
  (text) => {
    const at = Math.floor(text.length / 2);
    return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
  },
  // Fullwidth forms of ASCII letters (what some keyboards paste), and zero-width spaces between words.
  (text) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0)).replace(/ /g, ' \u200b'),
  (text) => text.replace(/[?.!,’]/g, ''),
];

describe('normalisePrompt', () => {
  it('undoes width, case, zero-width characters, punctuation and spacing in any script', () => {
    expect(normalisePrompt('  Ｈｅｌｌｏ,\u200b  WORLD!! ')).toBe('hello world');
    expect(normalisePrompt('Ąžuolas – ŽALIAS')).toBe('ąžuolas žalias');
    expect(normalisePrompt('Straße\u00ad')).toBe('strasse');
    expect(normalisePrompt('日本の四季。')).toBe('日本の四季');
    expect(normalisePrompt('?!…')).toBe('');
  });
});

describe('MinHash signatures', () => {
  it('estimate the exact Jaccard similarity of the shingle sets within 0.13 (3 standard errors at 128 values)', () => {
    const pairs: [string, string][] = [];
    for (const base of BASES) for (const edit of EDITS) pairs.push([base, edit(base)]);
    for (let index = 0; index + 1 < BASES.length; index++) pairs.push([BASES[index]!, BASES[index + 1]!]);
    pairs.push([BASES[15]!, BASES[16]!], [BASES[17]!, BASES[18]!]);
    let worst = 0;
    for (const [left, right] of pairs) {
      const estimate = estimatedJaccard(promptSignature(left)!, promptSignature(right)!);
      worst = Math.max(worst, Math.abs(estimate - exactJaccard(left, right)));
    }
    expect(worst).toBeLessThan(0.13);
    expect(pairs.length).toBe(BASES.length * EDITS.length + BASES.length + 1);
  });

  it('are the same for the same prompt, and none for a prompt of punctuation only', () => {
    expect(promptSignature('Bonjour, le monde')).toEqual(promptSignature('bonjour le monde'));
    expect(promptSignature('…?!')).toBeNull();
  });
});

describe('clusterPrompts', () => {
  const prompts = BASES.flatMap((base, group) => EDITS.map((edit, variant) => ({ id: `${group}-${variant}`, prompt: edit(base), group })));
  const clusters = clusterPrompts(prompts);

  it('puts exact duplicates and light edits of a prompt in the cluster of its first occurrence', () => {
    prompts.forEach((prompt, index) => {
      // A typo changes up to 6 of a prompt's 5-grams: below about 60 characters that is under the threshold (reported, not hidden).
      const typo = prompt.id.endsWith('-3');
      if (!typo || BASES[prompt.group]!.length >= 60) expect(clusters[index], prompt.prompt).toBe(`${prompt.group}-0`);
    });
  });

  it('keeps different questions apart, even with a shared frame', () => {
    const firstOf = (group: number) => clusters[prompts.findIndex((prompt) => prompt.group === group)];
    expect(new Set(BASES.map((_, group) => firstOf(group))).size).toBe(BASES.length);
    expect(exactJaccard(BASES[15]!, BASES[16]!)).toBeLessThan(PROMPT_CLUSTER_THRESHOLD);
  });

  it('reaches a pairwise precision of 1 and a recall of at least 0.9 on the synthetic set', () => {
    let truePairs = 0;
    let foundPairs = 0;
    let correct = 0;
    for (let i = 0; i < prompts.length; i++)
      for (let j = i + 1; j < prompts.length; j++) {
        const same = prompts[i]!.group === prompts[j]!.group;
        const together = clusters[i] === clusters[j];
        if (same) truePairs++;
        if (together) foundPairs++;
        if (same && together) correct++;
      }
    const precision = correct / foundPairs;
    const recall = correct / truePairs;
    console.info(
      `prompt clusters: ${prompts.length} prompts, ${truePairs} true pairs, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`,
    );
    expect(precision).toBe(1);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});
