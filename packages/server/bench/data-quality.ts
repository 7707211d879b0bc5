/**
 * Data-pipeline quality on the labelled sets we built ourselves (packages/server/test/fixtures):
 * precision and recall per personal-data kind of the deterministic layer, its recall and false
 * positives per rule and language on generated clinical-style notes, and language-ID
 * accuracy per language and on short texts (< 20 characters).
 * `node --import tsx packages/server/bench/data-quality.ts`, or `run()` as a bench part.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { PII_KINDS, type PiiKind, screenText } from '../src/domain/privacy';
import { createLanguageDetector } from '../src/adapters/language-detector';
import { clinicalNotesTable, scoreClinicalNotes } from '../test/fixtures/clinical-notes/score';

const fixtures = new URL('../test/fixtures/', import.meta.url);

const piiLineSchema = z.object({ text: z.string(), kinds: z.array(z.enum(PII_KINDS)), note: z.string().optional() });

export interface PiiItem extends z.infer<typeof piiLineSchema> {
  file: string;
}

export interface KindScore {
  kind: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
}

export function readPiiSet(): PiiItem[] {
  const folder = new URL('pii-fr/', fixtures);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) =>
      readFileSync(new URL(name, folder), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => ({ file: name, ...piiLineSchema.parse(JSON.parse(line)) })),
    );
}

/** Per kind: a text counts once per kind, predicted vs labelled. */
export function scorePii(items: readonly PiiItem[]): { scores: KindScore[]; misses: Array<PiiItem & { found: PiiKind[] }> } {
  const misses: Array<PiiItem & { found: PiiKind[] }> = [];
  const counts = new Map(PII_KINDS.map((kind) => [kind, { tp: 0, fp: 0, fn: 0 }]));
  for (const item of items) {
    const found = screenText(item.text).kinds;
    for (const kind of PII_KINDS) {
      const count = counts.get(kind) as { tp: number; fp: number; fn: number };
      const labelled = item.kinds.includes(kind);
      const predicted = found.includes(kind);
      if (labelled && predicted) count.tp += 1;
      else if (predicted) count.fp += 1;
      else if (labelled) count.fn += 1;
    }
    if (found.join() !== PII_KINDS.filter((kind) => item.kinds.includes(kind)).join()) {
      misses.push({ ...item, found });
    }
  }
  const scores = [...counts].map(([kind, { tp, fp, fn }]) => ({
    kind,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
  }));
  return { scores, misses };
}

export interface LanguageItem {
  language: string;
  text: string;
}

export interface LanguageScore {
  language: string;
  total: number;
  correct: number;
  shortTotal: number;
  shortCorrect: number;
}

export const SHORT_TEXT = 20;

export function readLanguageSet(): LanguageItem[] {
  const folder = new URL('langid/', fixtures);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.tsv'))
    .sort()
    .flatMap((name) =>
      readFileSync(new URL(name, folder), 'utf8')
        .split('\n')
        .slice(1)
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const [language = '', ...text] = line.split('\t');
          return { language, text: text.join('\t') };
        }),
    );
}

export async function scoreLanguages(
  items: readonly LanguageItem[],
): Promise<{ scores: LanguageScore[]; errors: Array<LanguageItem & { detected: string }> }> {
  const detector = createLanguageDetector();
  const byLanguage = new Map<string, LanguageScore>();
  const errors: Array<LanguageItem & { detected: string }> = [];
  for (const item of items) {
    const detected = await detector.detect(item.text);
    const score = byLanguage.get(item.language) ?? { language: item.language, total: 0, correct: 0, shortTotal: 0, shortCorrect: 0 };
    const right = detected === item.language;
    const short = [...item.text].length < SHORT_TEXT;
    score.total += 1;
    score.correct += right ? 1 : 0;
    score.shortTotal += short ? 1 : 0;
    score.shortCorrect += short && right ? 1 : 0;
    byLanguage.set(item.language, score);
    if (!right) errors.push({ ...item, detected });
  }
  return { scores: [...byLanguage.values()], errors };
}

const percent = (value: number) => `${(100 * value).toFixed(1)} %`;
const ratio = (correct: number, total: number) => (total === 0 ? '—' : `${correct}/${total} (${percent(correct / total)})`);

export async function run(): Promise<void> {
  const pii = scorePii(readPiiSet());
  process.stdout.write(
    '\nPersonal data, deterministic layer (test/fixtures/pii-fr)\n\n| kind | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|\n',
  );
  for (const score of pii.scores) {
    process.stdout.write(
      `| ${score.kind} | ${score.truePositives} | ${score.falsePositives} | ${score.falseNegatives} | ${percent(score.precision)} | ${percent(score.recall)} |\n`,
    );
  }
  for (const miss of pii.misses)
    process.stdout.write(
      `  miss ${miss.file}: ${JSON.stringify(miss.text)} labelled [${miss.kinds.join(',')}] found [${miss.found.join(',')}]\n`,
    );

  process.stdout.write(
    `\nPersonal data on generated clinical notes (test/fixtures/clinical-notes), 400 per language and as many clean\n\n${clinicalNotesTable(scoreClinicalNotes(400))}\n`,
  );

  const languages = await scoreLanguages(readLanguageSet());
  process.stdout.write(
    '\nLanguage ID (test/fixtures/langid)\n\n| language | all texts | sentences (≥ 20 chars) | short texts (< 20 chars) |\n|---|---|---|---|\n',
  );
  const sum = (pick: (score: LanguageScore) => number) => languages.scores.reduce((total, score) => total + pick(score), 0);
  for (const score of languages.scores) {
    const long = ratio(score.correct - score.shortCorrect, score.total - score.shortTotal);
    process.stdout.write(
      `| ${score.language} | ${ratio(score.correct, score.total)} | ${long} | ${ratio(score.shortCorrect, score.shortTotal)} |\n`,
    );
  }
  const allLong = ratio(
    sum((s) => s.correct - s.shortCorrect),
    sum((s) => s.total - s.shortTotal),
  );
  process.stdout.write(
    `| **all** | ${ratio(
      sum((s) => s.correct),
      sum((s) => s.total),
    )} | ${allLong} | ${ratio(
      sum((s) => s.shortCorrect),
      sum((s) => s.shortTotal),
    )} |\n`,
  );
  for (const error of languages.errors) process.stdout.write(`  ${error.language} → ${error.detected}: ${JSON.stringify(error.text)}\n`);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) await run();
