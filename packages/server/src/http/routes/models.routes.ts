import type { ModelList } from '@agora/contract';
import { Hono } from 'hono';
import type { ArenaCatalogue } from '../../services/arena-catalogue';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

export function modelRoutes(
  catalogue: ArenaCatalogue,
  limits: { maxPromptChars: number; maxTurns: number },
  routeLimits: RouteLimits,
): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', limitedBy(routeLimits)('reads'), (c) => {
    const hint = catalogue.setupHint();
    const setup = catalogue.setupNeeds();
    const body: ModelList = {
      models: catalogue.publicCards(),
      demo: catalogue.isDemo,
      ...(hint ? { setup_hint: hint } : {}),
      ...(setup ? { setup } : {}),
      limits: { max_prompt_chars: limits.maxPromptChars, max_turns: limits.maxTurns },
    };
    return c.json(body);
  });
  return routes;
}
