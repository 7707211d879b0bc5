import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { AppError } from '../services/app-error';

/**
 * Hono's zod validator with our error body: every invalid body, query or parameter answers
 * 400 `invalid_request` with the zod issues (path and message).
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
        message: issue.message,
      }));
      throw new AppError(
        'invalid_request',
        `invalid ${target}: ${issues.map((issue) => `${issue.path.join('.') || target}: ${issue.message}`).join('; ')}`,
        { issues },
      );
    }
    return undefined;
  });
}
