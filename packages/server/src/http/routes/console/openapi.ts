import type { Operation } from '../../openapi-operation';
import { contentOperations } from './content.openapi';
import { activityOperations } from './activity.openapi';
import { influenceOperations } from './influence.openapi';
import { modelOperations } from './models.openapi';
import { publicationOperations } from './publication.openapi';
import { reviewOperations } from './review.openapi';
import { staffOperations } from './staff.openapi';

/**
 * The console's routes in the OpenAPI document: each area lists its own (`<area>.openapi.ts`),
 * joined here. The security tests enumerate `/api/v1/admin/*` from this document: a route missing
 * here is a route nobody checked.
 */
export const consoleOperations: readonly Operation[] = [
  ...staffOperations,
  ...modelOperations,
  ...activityOperations,
  ...contentOperations,
  ...publicationOperations,
  ...reviewOperations,
  ...influenceOperations,
];
