import {
  activateRequestSchema,
  auditPageSchema,
  auditQuerySchema,
  signInRequestSchema,
  staffInviteRequestSchema,
  staffInvitedSchema,
  staffListSchema,
  staffSessionSchema,
} from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

const ADMIN = '(console session of an admin, or the admin token)';

export const staffOperations: readonly Operation[] = [
  {
    method: 'post',
    path: '/api/v1/staff/sign-in',
    summary: 'Signs a staff member in: sets the HttpOnly session cookie; limited per e-mail and per address',
    body: signInRequestSchema,
    responses: { 200: { description: 'the session', schema: staffSessionSchema }, ...errors(400, 401) },
  },
  {
    method: 'post',
    path: '/api/v1/staff/activate',
    summary: 'Uses a one-time sign-in link: sets the password and signs in',
    body: activateRequestSchema,
    responses: { 200: { description: 'the session', schema: staffSessionSchema }, ...errors(400, 401) },
  },
  {
    method: 'get',
    path: '/api/v1/staff/session',
    summary: 'Who is signed in, and the CSRF token for state changes (x-agora-csrf)',
    responses: { 200: { description: 'the session', schema: staffSessionSchema }, ...errors(401) },
  },
  {
    method: 'delete',
    path: '/api/v1/staff/session',
    summary: 'Signs out (ends the session)',
    responses: { 204: { description: 'signed out' } },
  },
  {
    method: 'get',
    path: '/api/v1/admin/staff',
    role: 'admin',
    summary: `Console members, their roles and live sessions ${ADMIN}`,
    responses: { 200: { description: 'members', schema: staffListSchema }, ...errors(401, 403) },
  },
  {
    method: 'post',
    path: '/api/v1/admin/staff',
    role: 'admin',
    summary: `Adds a member (or changes their role) and returns a one-time sign-in link ${ADMIN}`,
    body: staffInviteRequestSchema,
    responses: { 201: { description: 'the link, shown once', schema: staffInvitedSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'post',
    path: '/api/v1/admin/staff/{id}/revoke-sessions',
    role: 'admin',
    summary: `Ends every session of a member ${ADMIN}`,
    responses: { 200: { description: 'how many ended' }, ...errors(401, 403, 404) },
  },
  {
    method: 'delete',
    path: '/api/v1/admin/staff/{id}',
    role: 'admin',
    summary: `Disables a member: sessions end, sign-ins refused until added again ${ADMIN}`,
    responses: { 204: { description: 'disabled' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'get',
    path: '/api/v1/admin/audit',
    role: 'admin',
    summary: `The audit log of console and admin-API requests, newest first ${ADMIN}`,
    query: auditQuerySchema,
    responses: { 200: { description: 'one page', schema: auditPageSchema }, ...errors(400, 401, 403) },
  },
  {
    method: 'get',
    path: '/api/v1/admin/audit/export',
    role: 'admin',
    summary: `The audit log as CSV ${ADMIN}`,
    query: auditQuerySchema,
    responses: { 200: { description: 'CSV', contentType: 'text/csv' }, ...errors(400, 401, 403) },
  },
];
