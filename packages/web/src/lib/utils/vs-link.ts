import type { ModelCard } from '@agora/contract';

/** The models a `?vs=id1,id2` link names (links from articles): trimmed, without blanks or repeats, two at most. */
export function modelsOfVsLink(vs: string | null): string[] {
  if (!vs) return [];
  return [
    ...new Set(
      vs
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ].slice(0, 2);
}

/** A link's models against the catalogue: those this arena can draw, and those it does not have, to be named. */
export function checkVsModels(ids: readonly string[], models: readonly ModelCard[]): { drawable: string[]; unknown: string[] } {
  const drawable = new Set(models.filter((model) => model.status === 'enabled' && model.available).map((model) => model.id));
  return { drawable: ids.filter((id) => drawable.has(id)), unknown: ids.filter((id) => !drawable.has(id)) };
}
