import type { ModelList } from '@agora/contract';
import { Hono } from 'hono';
import type { ArenaCatalogue } from '../../services/arena-catalogue';
import type { AppEnv } from '../app-env';

export function modelRoutes(catalogue: ArenaCatalogue): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', (c) => {
    const hint = catalogue.setupHint();
    const body: ModelList = { models: catalogue.publicCards(), demo: catalogue.isDemo, ...(hint ? { setup_hint: hint } : {}) };
    return c.json(body);
  });
  return routes;
}
