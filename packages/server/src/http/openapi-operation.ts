import { errorBodySchema } from '@agora/contract';
import type { z } from 'zod';

/** One route of the OpenAPI document (http/openapi.ts builds the document from these). */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** With `{name}` for each path parameter. */
  path: string;
  summary: string;
  /** The console role a route of `/api/v1/admin/*` needs (`x-agora-role` in the document; the security tests read it). */
  role?: 'admin' | 'reviewer';
  body?: z.ZodType;
  query?: z.ZodObject;
  responses: Record<number, OperationResponse>;
}

export interface OperationResponse {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'integer' } }>;
}

/** Error answers, with the JSON error body. */
export const errors = (...statuses: number[]): Record<number, OperationResponse> =>
  Object.fromEntries(statuses.map((status) => [status, { description: 'error', schema: errorBodySchema }]));
