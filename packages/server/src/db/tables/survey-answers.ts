/** The population survey's answers (migration 2026_12_09_105930; docs/privacy.md#population-survey). */
export interface SurveyAnswersTable {
  /** The visitor cookie's hash, as duels.visitor_hash: one row per visitor. */
  visitor_hash: string;
  /** JSON `{question id: option id}`, or null when the visitor skipped the survey. */
  answers: string | null;
  answered_at: string;
}

export interface SurveyAnswersTables {
  survey_answers: SurveyAnswersTable;
}
