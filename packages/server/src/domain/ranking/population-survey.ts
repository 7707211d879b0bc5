import type { Margin } from './raking';
import type { PopulationThreshold } from './population-board';

/*
 * The operator's population survey (docs/configuration.md#population-survey): questions, their
 * options with a label per interface language, and each option's share of the reference
 * population (e.g. a census margin). Off unless the operator writes one.
 */

/** Interface languages, as packages/contract's INTERFACE_LOCALES. */
export type SurveyLocale = 'fr' | 'en' | 'da' | 'sv' | 'lt';

export type SurveyLabels = Readonly<Record<SurveyLocale, string>>;

export interface SurveyOption {
  id: string;
  label: SurveyLabels;
  /** Share of the reference population; a question's shares sum to 1. */
  share: number;
}

export interface SurveyQuestion {
  id: string;
  label: SurveyLabels;
  options: readonly SurveyOption[];
}

export interface PopulationSurvey {
  questions: readonly SurveyQuestion[];
  /** Where the margins come from (shown with the weighted board). */
  source: string;
  threshold: PopulationThreshold;
}

/** The survey's margins, in question order, for raking. */
export function surveyMargins(survey: PopulationSurvey): Margin[] {
  return survey.questions.map((question) => ({ question: question.id, shares: question.options.map((option) => option.share) }));
}

/**
 * A visitor's answers as option indices in question order, or undefined unless every question is
 * answered with one of its options (partial or stale answers are not raked: an operator may change
 * the questions, and older answers to other options then no longer count).
 */
export function answerIndices(survey: PopulationSurvey, answers: Readonly<Record<string, string>>): number[] | undefined {
  const indices: number[] = [];
  for (const question of survey.questions) {
    const index = question.options.findIndex((option) => option.id === answers[question.id]);
    if (index < 0) return undefined;
    indices.push(index);
  }
  return indices;
}
