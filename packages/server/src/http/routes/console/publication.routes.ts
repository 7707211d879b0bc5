import { hubSettingsUpdateSchema, publicationExportRequestSchema, typedTextSchema } from '@agora/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import type { PublicationService } from '../../../services/publication/publication.service';
import type { AppEnv } from '../../app-env';
import { actorOf, requireRole } from '../../middleware/staff-auth';
import { validate } from '../../validate';

const idSchema = typedTextSchema.pipe(z.string().min(1).max(100));
const runParam = validate('param', z.strictObject({ id: idSchema }));
const buildParam = validate('param', z.strictObject({ id: idSchema }));
const cardParam = validate('param', z.strictObject({ id: idSchema, tier: z.enum(['public', 'gated']) }));

/**
 * `/api/v1/admin/publication…` (admins): the page's overview, an export run and its progress, a
 * push of a build to the Hub, a build's cards, the Hub settings. Who acts is the session's member
 * (or the admin token), never a name from the body; the token travels only in a body, which the
 * audit log does not keep.
 */
export function publicationRoutes(publication: PublicationService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('/publication', requireRole('admin'));
  routes.use('/publication/*', requireRole('admin'));
  routes.get('/publication', async (c) => {
    const overview = await publication.overview();
    c.set('auditRows', overview.builds.length + overview.runs.length);
    return c.json(overview);
  });
  routes.get('/publication/runs/:id', runParam, async (c) => {
    const run = await publication.run(c.req.valid('param').id);
    c.set('auditRows', 1);
    return c.json(run);
  });
  routes.post('/publication/exports', validate('json', publicationExportRequestSchema), async (c) => {
    const run = await publication.startExport(actorOf(c).name, c.req.valid('json'));
    c.set('auditRows', 1);
    return c.json(run, 202);
  });
  routes.post('/publication/builds/:id/push', buildParam, async (c) => {
    const run = await publication.startPush(actorOf(c).name, c.req.valid('param').id);
    c.set('auditRows', 1);
    return c.json(run, 202);
  });
  routes.get('/publication/builds/:id/cards/:tier', cardParam, async (c) => {
    const { id, tier } = c.req.valid('param');
    const card = await publication.card(id, tier);
    c.set('auditRows', 1);
    // Plain text: the browser shows the Markdown as written, and runs nothing in it.
    return c.body(card, 200, { 'content-type': 'text/plain; charset=utf-8' });
  });
  routes.get('/publication/settings', async (c) => {
    c.set('auditRows', 1);
    return c.json(await publication.hubSettings());
  });
  routes.put('/publication/settings', validate('json', hubSettingsUpdateSchema), async (c) => {
    const { changed, settings } = await publication.changeSettings(c.req.valid('json'));
    c.set('auditRows', changed);
    return c.json(settings);
  });
  return routes;
}
