import {
  hubSettingsSchema,
  hubSettingsUpdateSchema,
  publicationExportRequestSchema,
  publicationOverviewSchema,
  publicationRunSchema,
} from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

const ADMIN = '(console session of an admin, or the admin token)';

export const publicationOperations: readonly Operation[] = [
  {
    role: 'admin',
    method: 'get',
    path: '/api/v1/admin/publication',
    summary: `The publication page: Hub settings (never the token), the exports with their rows and cards, the last runs ${ADMIN}`,
    responses: { 200: { description: 'the overview', schema: publicationOverviewSchema }, ...errors(401, 403) },
  },
  {
    role: 'admin',
    method: 'get',
    path: '/api/v1/admin/publication/runs/{id}',
    summary: `An export's or a push's progress and outcome, from any instance ${ADMIN}`,
    responses: { 200: { description: 'the run', schema: publicationRunSchema }, ...errors(400, 401, 403, 404) },
  },
  {
    role: 'admin',
    method: 'post',
    path: '/api/v1/admin/publication/exports',
    summary: `Starts an export with the code of agora export (one export or push at a time across instances) ${ADMIN}`,
    body: publicationExportRequestSchema,
    responses: { 202: { description: 'the run, started', schema: publicationRunSchema }, ...errors(400, 401, 403, 409) },
  },
  {
    role: 'admin',
    method: 'post',
    path: '/api/v1/admin/publication/builds/{id}/push',
    summary: `Pushes an export's public folder (and gated folder, when a gated repository is set) to the Hugging Face Hub ${ADMIN}`,
    responses: { 202: { description: 'the run, started', schema: publicationRunSchema }, ...errors(400, 401, 403, 404, 409) },
  },
  {
    role: 'admin',
    method: 'get',
    path: '/api/v1/admin/publication/builds/{id}/cards/{tier}',
    summary: `An export's dataset card (README.md) of the public or gated folder, as text ${ADMIN}`,
    responses: { 200: { description: 'the card', contentType: 'text/plain' }, ...errors(400, 401, 403, 404) },
  },
  {
    role: 'admin',
    method: 'get',
    path: '/api/v1/admin/publication/settings',
    summary: `The Hub settings: repositories, whether a token is set (never the token), the schedule ${ADMIN}`,
    responses: { 200: { description: 'the settings', schema: hubSettingsSchema }, ...errors(401, 403) },
  },
  {
    role: 'admin',
    method: 'put',
    path: '/api/v1/admin/publication/settings',
    summary: `Sets the repositories, the token (stored, never answered again) or the schedule ${ADMIN}`,
    body: hubSettingsUpdateSchema,
    responses: { 200: { description: 'the settings', schema: hubSettingsSchema }, ...errors(400, 401, 403) },
  },
];
