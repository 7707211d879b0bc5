import { populationBoardSchema, surveyQuerySchema, surveyRequestSchema, surveySchema } from '@agora/contract';
import { type Operation, errors } from '../openapi-operation';

/** The population survey's routes and the weighted board (docs/api.md#population-survey). */
export const surveyOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/v1/survey',
    summary: "The population survey in one interface language, and whether this visitor's cookie has answered or skipped it",
    query: surveyQuerySchema,
    responses: { 200: { description: 'survey', schema: surveySchema }, ...errors(400) },
  },
  {
    method: 'put',
    path: '/api/v1/survey',
    summary: 'Answers every question of the population survey (one option id each), or skips it; either way it is not shown again',
    query: surveyQuerySchema,
    body: surveyRequestSchema,
    responses: { 200: { description: 'survey', schema: surveySchema }, ...errors(400, 404) },
  },
  {
    method: 'get',
    path: '/api/v1/leaderboard/population',
    summary:
      "The board weighted to the population: answering visitors' votes raked to the survey's margins, clustered by visitor; or why it is not shown",
    responses: { 200: { description: 'weighted board', schema: populationBoardSchema } },
  },
];
