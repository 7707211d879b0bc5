import { modelAddRequestSchema, modelOverrideRequestSchema, modelTestRequestSchema } from '@agora/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ModelCatalogueService } from '../../../services/models/model-catalogue.service';
import type { AppEnv } from '../../app-env';
import { actorOf, requireRole } from '../../middleware/staff-auth';
import { validate } from '../../validate';

const modelIdParam = validate('param', z.strictObject({ id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'a model id') }));

/**
 * `/api/v1/admin/models…` (admins): the catalogue with the console's overrides, a model's facts
 * changed or reset to models.yaml, a model added without a restart, a test call. The author of a
 * change is the signed-in actor, never a name from the body.
 */
export function modelAdminRoutes(models: ModelCatalogueService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('/models', requireRole('admin'));
  routes.use('/models/*', requireRole('admin'));
  routes.get('/models', async (c) => {
    const list = await models.list();
    c.set('auditRows', list.models.length);
    return c.json(list);
  });
  routes.post('/models', validate('json', modelAddRequestSchema), async (c) => {
    await models.add(c.req.valid('json'), actorOf(c).name);
    c.set('auditRows', 1);
    return c.body(null, 201);
  });
  routes.patch('/models/:id', modelIdParam, validate('json', modelOverrideRequestSchema), async (c) => {
    await models.override(c.req.valid('param').id, c.req.valid('json'), actorOf(c).name);
    c.set('auditRows', 1);
    return c.body(null, 204);
  });
  routes.delete('/models/:id/override', modelIdParam, async (c) => {
    await models.reset(c.req.valid('param').id);
    c.set('auditRows', 1);
    return c.body(null, 204);
  });
  routes.post('/models/:id/test', modelIdParam, validate('json', modelTestRequestSchema), async (c) => {
    const result = await models.test(c.req.valid('param').id, c.req.valid('json').prompt);
    c.set('auditRows', 1);
    return c.json(result);
  });
  return routes;
}
