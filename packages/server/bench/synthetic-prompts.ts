/**
 * Prompts of the benches' synthetic stores: sentences of a few thousand words per language drawn by
 * Zipf's law (rank r with probability ∝ 1/r), as in real prompts, each sentence new. The frequent
 * words come first (the language detector recognises them); the rarer ones are made of the
 * language's syllables. Unrelated prompts then rarely share a near-duplicate band key (about once in
 * 67,000 pairs, measured), where sentences of a few dozen words share one with most others.
 */

/** The most frequent words of each language (function words first). */
export const FREQUENT_WORDS: Record<string, string> = {
  fr: 'le la les un une des de du et à en pour avec sans sur dans par que qui comment pourquoi énergie recette histoire langue réponse question exemple ville région musique loi impôt santé climat océan montagne est sont nous vous très aussi',
  en: 'the a of and to in for with without on by that which how why energy recipe history language answer question example city region music law tax health climate ocean mountain is are we you very also',
  da: 'den det en et og at i til med uden på af som hvordan hvorfor energi opskrift historie sprog svar spørgsmål eksempel by region musik lov skat sundhed klima hav bjerg er vi du meget også',
  sv: 'den det en ett och att i till med utan på av som hur varför energi recept historia språk svar fråga exempel stad region musik lag skatt hälsa klimat hav berg är vi du mycket också',
  lt: 'ir kad su be ant iš kaip kodėl energija receptas istorija kalba atsakymas klausimas pavyzdys miestas regionas muzika įstatymas mokestis sveikata klimatas vandenynas kalnas yra mes jūs labai taip pat',
};
/** Syllables of each language, from which the rarer words of its vocabulary are made. */
const SYLLABLES: Record<string, string> = {
  fr: 'ma té ri on tion ment eau ré pro con dé vé ca li que ter nel ai ou pre mi sa ble par che gé',
  en: 'ing er tion con pro ex st re com in ly ment ter ar ble ous ther al ent im per ful ness ish man',
  da: 'ning hed ske lig for be sam ud over und sk tr kon lse ende ere ing sted fj kø hus vej land gr',
  sv: 'ning het ska lig för be sam ut över und sk tr kon lse ande are ing ställ fj kö hus väg land gr',
  lt: 'mas tas ija imas ėjimas su pa iš nu ap ry kal vė lie tuv ška ras ius ai ų ė čia mo dar kel',
};
/** Words per language. */
const VOCABULARY = 4000;

/** Each language's vocabulary: its frequent words, then made-up words of two to four of its syllables. */
function vocabulary(random: () => number, language: string): string[] {
  const words = FREQUENT_WORDS[language]!.split(' ');
  const syllables = SYLLABLES[language]!.split(' ');
  const seen = new Set(words);
  while (words.length < VOCABULARY) {
    const word = Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]!).join('');
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** A draw of ranks 0…n−1 by Zipf's law (exponent 1): the inverse of the cumulative weights, by bisection. */
function zipf(random: () => number, n: number): () => number {
  const cumulative = new Float64Array(n);
  for (let rank = 0, total = 0; rank < n; rank++) cumulative[rank] = total += 1 / (rank + 1);
  return () => {
    const target = random() * cumulative[n - 1]!;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** Sentences of 6 to 13 words of each language's vocabulary, new at each call. */
export function sentenceMaker(
  random: () => number,
  languages: readonly string[] = Object.keys(FREQUENT_WORDS),
): (language: string) => string {
  const rank = zipf(random, VOCABULARY);
  const vocabularies = Object.fromEntries(languages.map((language) => [language, vocabulary(random, language)]));
  return (language) => {
    const words = vocabularies[language]!;
    const sentence = Array.from({ length: 6 + Math.floor(random() * 8) }, () => words[rank()]!).join(' ');
    return `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
  };
}
