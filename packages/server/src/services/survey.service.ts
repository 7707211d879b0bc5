import type { Survey, SurveyRequest } from '@agora/contract';
import type { Store } from '../db/unit-of-work';
import { type PopulationSurvey, type SurveyLocale, answerIndices } from '../domain/ranking/population-survey';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';
import { hashVisitor } from './visitor-hashes';

/**
 * The population survey (docs/arena.md#population-survey), bound to the visitor cookie as "my
 * duels" are: the questions in the visitor's language, and their answers or skip, kept once per
 * cookie so that the survey is never shown again. Off (and every answer refused) without a survey file.
 */
export class SurveyService {
  constructor(private readonly dependencies: { store: Store; runtime: Runtime; survey: PopulationSurvey | undefined }) {}

  async get(visitorId: string, locale: SurveyLocale): Promise<Survey> {
    const { survey, store } = this.dependencies;
    if (!survey) return { enabled: false, status: 'skipped', questions: [], answers: null };
    const stored = await store.surveyAnswers.find(hashVisitor(visitorId));
    return {
      enabled: true,
      status: stored === undefined ? 'pending' : stored.answers === null ? 'skipped' : 'answered',
      questions: survey.questions.map((question) => ({
        id: question.id,
        label: question.label[locale],
        options: question.options.map((option) => ({ id: option.id, label: option.label[locale] })),
      })),
      answers: stored?.answers ?? null,
    };
  }

  /** Records every question's answer, or the skip; 400 when an answer is not one of the question's options. */
  async put(visitorId: string, request: SurveyRequest, locale: SurveyLocale): Promise<Survey> {
    const { survey, store, runtime } = this.dependencies;
    if (!survey) throw new AppError('not_found', 'this arena has no population survey');
    const answers = 'answers' in request ? request.answers : null;
    if (answers !== null) {
      const known = new Set(survey.questions.map((question) => question.id));
      if (Object.keys(answers).some((id) => !known.has(id)) || !answerIndices(survey, answers))
        throw new AppError('invalid_request', 'answer every question with one of its options');
    }
    await store.surveyAnswers.put({ visitorHash: hashVisitor(visitorId), answers, answeredAt: runtime.now().toISOString() });
    return this.get(visitorId, locale);
  }

  /** Erases the visitor's answers (with their duels: docs/privacy.md#your-duels). */
  async erase(visitorId: string): Promise<number> {
    return this.dependencies.store.surveyAnswers.erase(hashVisitor(visitorId));
  }
}
