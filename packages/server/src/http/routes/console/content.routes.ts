import {
  contentLocaleParamSchema,
  contentLocaleQuerySchema,
  contentPageParamSchema,
  contentPageRequestSchema,
  contentSuggestionsRequestSchema,
  contentTagsRequestSchema,
} from '@agora/contract';
import { Hono } from 'hono';
import type { ContentService } from '../../../services/content.service';
import type { AppEnv } from '../../app-env';
import { actorOf, requireRole } from '../../middleware/staff-auth';
import { validate } from '../../validate';

const localeParam = validate('param', contentLocaleParamSchema);
const pageParam = validate('param', contentPageParamSchema);

/**
 * `/api/v1/admin/content…` (admins): the vote tags, prompt suggestions and site pages of one
 * language. Saving replaces the language's list or page whole; DELETE goes back to the built-in one.
 */
export function contentAdminRoutes(content: ContentService): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('/content', requireRole('admin'));
  routes.use('/content/*', requireRole('admin'));
  routes.get('/content', validate('query', contentLocaleQuerySchema), async (c) => {
    const overview = await content.overview(c.req.valid('query').locale);
    c.set('auditRows', (overview.tags ? 1 : 0) + (overview.suggestions ? 1 : 0) + overview.pages.length);
    return c.json(overview);
  });
  routes.put('/content/tags/:locale', localeParam, validate('json', contentTagsRequestSchema), async (c) => {
    await content.saveList('tags', c.req.valid('param').locale, c.req.valid('json').tags, actorOf(c));
    c.set('auditRows', 1);
    return c.json(await content.arena(c.req.valid('param').locale));
  });
  routes.delete('/content/tags/:locale', localeParam, async (c) => {
    c.set('auditRows', (await content.resetList('tags', c.req.valid('param').locale)) ? 1 : 0);
    return c.body(null, 204);
  });
  routes.put('/content/suggestions/:locale', localeParam, validate('json', contentSuggestionsRequestSchema), async (c) => {
    await content.saveList('suggestions', c.req.valid('param').locale, c.req.valid('json').suggestions, actorOf(c));
    c.set('auditRows', 1);
    return c.json(await content.arena(c.req.valid('param').locale));
  });
  routes.delete('/content/suggestions/:locale', localeParam, async (c) => {
    c.set('auditRows', (await content.resetList('suggestions', c.req.valid('param').locale)) ? 1 : 0);
    return c.body(null, 204);
  });
  routes.get('/content/pages/:name/:locale', pageParam, async (c) => {
    const { name, locale } = c.req.valid('param');
    c.set('auditRows', 1);
    return c.json(await content.page(name, locale));
  });
  routes.put('/content/pages/:name/:locale', pageParam, validate('json', contentPageRequestSchema), async (c) => {
    const { name, locale } = c.req.valid('param');
    const saved = await content.savePage(name, locale, c.req.valid('json').markdown, actorOf(c));
    c.set('auditRows', 1);
    return c.json(saved);
  });
  routes.delete('/content/pages/:name/:locale', pageParam, async (c) => {
    const { name, locale } = c.req.valid('param');
    c.set('auditRows', (await content.resetPage(name, locale)) ? 1 : 0);
    return c.body(null, 204);
  });
  return routes;
}
