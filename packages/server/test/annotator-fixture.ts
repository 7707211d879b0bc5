import { parseCatalogue } from '../src/config/catalogue';
import { testCatalogueYaml } from './test-arena';

/** The annotation model: in the catalogue but disabled, so that it is never drawn into a duel. */
export const ANNOTATOR = { id: 'annotator-small', upstream: 'tools/annotator-small' };

/**
 * A tool model of the catalogue (annotation, the optimised set's roles): disabled, so that it is never
 * drawn into a duel, served by `upstreamModel` at `baseUrl`; `extra` is more YAML of the entry.
 */
export function toolModelYaml(id: string, baseUrl: string, upstreamModel: string, extra = ''): string {
  return `  - id: ${id}
    name: ${id}
    organisation: Tooling
    license: Apache 2.0
    open_weights: true
    arch: dense
    params_b: 8
    reasoning: false
    release_date: '2026-01'
    status: disabled
    provider:
      type: openai-compatible
      base_url: ${baseUrl}
      model: ${upstreamModel}
${extra}`;
}

/** The test catalogue plus the annotation model, as YAML (for CLI runs) … */
export function catalogueWithAnnotatorYaml(baseUrl: string): string {
  return `${testCatalogueYaml(baseUrl)}${toolModelYaml(ANNOTATOR.id, baseUrl, ANNOTATOR.upstream)}`;
}

/** … and parsed (for in-process arenas). */
export const catalogueWithAnnotator = (baseUrl: string) => parseCatalogue(catalogueWithAnnotatorYaml(baseUrl), 'test-models.yaml', {});

/**
 * What the fake annotation model answers: it reads the conversation it was sent and reports a
 * private person when "Josiane Morel" appears in it, as a real model would.
 */
export function annotatorAnswer(userMessage: string): string {
  const privatePerson = userMessage.includes('Josiane Morel');
  return JSON.stringify({
    categories: userMessage.includes('photosynthèse')
      ? ['Natural Science & Formal Science & Technology', 'Not a category']
      : ['Health & Wellness & Medicine'],
    keywords: ['biologie', 'plantes', 'lumière', 'chlorophylle', 'énergie'],
    short_summary: 'The visitor asks for an explanation of a scientific process.',
    personal_data: { found: privatePerson, kinds: privatePerson ? ['name', 'health'] : [] },
  });
}
