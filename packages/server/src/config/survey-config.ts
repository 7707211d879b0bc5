import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { DEFAULT_POPULATION_THRESHOLD } from '../domain/ranking/population-board';
import type { PopulationSurvey } from '../domain/ranking/population-survey';

/*
 * The population survey file (AGORA_SURVEY, docs/configuration.md#population-survey): YAML with
 * the questions, each option's label in every interface language and its reference share. The
 * numbers are the operator's (docs/examples/survey.fr.yaml: France, INSEE); nothing here assumes one.
 */

const labels = z.strictObject({
  fr: z.string().min(1).max(200),
  en: z.string().min(1).max(200),
  da: z.string().min(1).max(200),
  sv: z.string().min(1).max(200),
  lt: z.string().min(1).max(200),
});
const identifier = z.string().regex(/^[a-z0-9_]{1,40}$/, 'lowercase letters, digits and _, at most 40');

const surveySchema = z.strictObject({
  source: z.string().min(1).max(500),
  threshold: z
    .strictObject({ min_votes: z.number().int().min(1), min_visitors: z.number().int().min(1) })
    .default({ min_votes: DEFAULT_POPULATION_THRESHOLD.minVotes, min_visitors: DEFAULT_POPULATION_THRESHOLD.minVisitors }),
  questions: z
    .array(
      z.strictObject({
        id: identifier,
        label: labels,
        options: z
          .array(z.strictObject({ id: identifier, label: labels, share: z.number().min(0).max(1) }))
          .min(2)
          .max(20)
          .refine((options) => new Set(options.map((option) => option.id)).size === options.length, 'option ids are unique')
          .refine((options) => Math.abs(options.reduce((sum, option) => sum + option.share, 0) - 1) <= 1e-3, 'shares sum to 1'),
      }),
    )
    .min(1)
    .max(10)
    .refine((questions) => new Set(questions.map((question) => question.id)).size === questions.length, 'question ids are unique'),
});

export class SurveyConfigError extends Error {
  override readonly name = 'SurveyConfigError';
}

/** Reads and validates the survey file; errors name the file and the field. */
export function loadSurvey(path: string): PopulationSurvey {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SurveyConfigError(`AGORA_SURVEY: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseSurvey(text, path);
}

/** Validates survey text (see {@link loadSurvey}); shares are normalised to sum to exactly 1 (census tables round). */
export function parseSurvey(text: string, path: string): PopulationSurvey {
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0) throw new SurveyConfigError(`${path}: ${document.errors[0]!.message.split('\n')[0]}`);
  const parsed = surveySchema.safeParse(document.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SurveyConfigError(`${path}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const { source, threshold, questions } = parsed.data;
  return {
    source,
    threshold: { minVotes: threshold.min_votes, minVisitors: threshold.min_visitors },
    questions: questions.map((question) => {
      const total = question.options.reduce((sum, option) => sum + option.share, 0);
      return { ...question, options: question.options.map((option) => ({ ...option, share: option.share / total })) };
    }),
  };
}
