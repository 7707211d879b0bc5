import {
  arenaContentSchema,
  contentLocaleQuerySchema,
  contentOverviewSchema,
  contentPageRequestSchema,
  contentPageSchema,
  contentSuggestionsRequestSchema,
  contentTagsRequestSchema,
} from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

const ADMIN = '(console session of an admin, or the admin token)';

/** The console's content routes, and the arena's public read of what they store. */
export const contentOperations: readonly Operation[] = [
  {
    method: 'get',
    path: '/api/v1/content/arena',
    summary: 'The vote tags and prompt suggestions an admin stored for a language (null: the arena shows its built-in ones)',
    query: contentLocaleQuerySchema,
    responses: { 200: { description: 'the stored lists', schema: arenaContentSchema }, ...errors(400) },
  },
  {
    method: 'get',
    path: '/api/v1/admin/content',
    role: 'admin',
    summary: `One language's stored tags and suggestions, and where each site page's text comes from ${ADMIN}`,
    query: contentLocaleQuerySchema,
    responses: { 200: { description: 'the language', schema: contentOverviewSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'put',
    path: '/api/v1/admin/content/tags/{locale}',
    role: 'admin',
    summary: `Replaces the vote tags (which, in which order, under which words) of a language ${ADMIN}`,
    body: contentTagsRequestSchema,
    responses: { 200: { description: 'the stored lists', schema: arenaContentSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'delete',
    path: '/api/v1/admin/content/tags/{locale}',
    role: 'admin',
    summary: `Back to the built-in vote tags of a language ${ADMIN}`,
    responses: { 204: { description: 'reset' }, ...errors(400, 401, 403) },
  },
  {
    method: 'put',
    path: '/api/v1/admin/content/suggestions/{locale}',
    role: 'admin',
    summary: `Replaces the prompt suggestions of a language ${ADMIN}`,
    body: contentSuggestionsRequestSchema,
    responses: { 200: { description: 'the stored lists', schema: arenaContentSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'delete',
    path: '/api/v1/admin/content/suggestions/{locale}',
    role: 'admin',
    summary: `Back to the built-in prompt suggestions of a language ${ADMIN}`,
    responses: { 204: { description: 'reset' }, ...errors(400, 401, 403) },
  },
  {
    method: 'get',
    path: '/api/v1/admin/content/pages/{name}/{locale}',
    role: 'admin',
    summary: `A site page's Markdown in exactly that language, where it comes from and whether the console may change it ${ADMIN}`,
    responses: { 200: { description: 'the page', schema: contentPageSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'put',
    path: '/api/v1/admin/content/pages/{name}/{locale}',
    role: 'admin',
    summary: `Stores a site page's Markdown for a language; 409 when AGORA_PAGES_DIR is set (the folder wins) ${ADMIN}`,
    body: contentPageRequestSchema,
    responses: { 200: { description: 'the page', schema: contentPageSchema }, ...errors(400, 401, 403, 409) },
  },
  {
    method: 'delete',
    path: '/api/v1/admin/content/pages/{name}/{locale}',
    role: 'admin',
    summary: `Back to the bundled text of a page (none for the legal notice); 409 when AGORA_PAGES_DIR is set ${ADMIN}`,
    responses: { 204: { description: 'reset' }, ...errors(400, 401, 403, 409) },
  },
];
