import {
  consoleModelListSchema,
  modelAddRequestSchema,
  modelOverrideRequestSchema,
  modelTestRequestSchema,
  modelTestResultSchema,
} from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

const ADMIN = '(console session of an admin, or the admin token)';

export const modelOperations: readonly Operation[] = [
  {
    method: 'get',
    path: '/api/v1/admin/models',
    role: 'admin',
    summary: `The catalogue: models.yaml with the console's overrides and added models, each with its last errors, error rate and latency over 7 days, and the providers models.yaml configures ${ADMIN}`,
    responses: { 200: { description: 'the models', schema: consoleModelListSchema }, ...errors(401, 403) },
  },
  {
    method: 'post',
    path: '/api/v1/admin/models',
    role: 'admin',
    summary: `Adds a model of a provider models.yaml configures, without a restart: every instance draws it within AGORA_MODEL_SYNC_MS ${ADMIN}`,
    body: modelAddRequestSchema,
    responses: { 201: { description: 'added' }, ...errors(400, 401, 403) },
  },
  {
    method: 'patch',
    path: '/api/v1/admin/models/{id}',
    role: 'admin',
    summary: `Changes a model's facts (enabled or disabled, size, licence, pricing, descriptions); a disabled model is never drawn for a new duel, duels under way finish ${ADMIN}`,
    body: modelOverrideRequestSchema,
    responses: { 204: { description: 'changed' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'delete',
    path: '/api/v1/admin/models/{id}/override',
    role: 'admin',
    summary: `Back to models.yaml: the model's override deleted (an added model leaves the catalogue) ${ADMIN}`,
    responses: { 204: { description: 'reset' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'post',
    path: '/api/v1/admin/models/{id}/test',
    role: 'admin',
    summary: `A test call: one short prompt, the answer's first characters, time to first token and in all, or the error ${ADMIN}`,
    body: modelTestRequestSchema,
    responses: { 200: { description: 'the outcome', schema: modelTestResultSchema }, ...errors(400, 401, 403, 404) },
  },
];
