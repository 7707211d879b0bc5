import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

/** Whether a model file is already on disk (a pull then reads its facts without downloading it). */
export const modelFileExists = (path: string): boolean => existsSync(path);

/**
 * Writes the catalogue of local models `agora models pull` keeps: the entries it pulled, after those
 * of a catalogue written before whose ids it did not pull again (pulling one more never leaves the
 * arena with fewer); an unreadable earlier catalogue counts as empty and is written again.
 */
export function writeLocalCatalogue(cataloguePath: string, entries: readonly Record<string, unknown>[]): void {
  const pulledIds = new Set(entries.map((entry) => entry.id));
  const earlier = existsSync(cataloguePath) ? earlierEntries(readFileSync(cataloguePath, 'utf8')) : [];
  writeFileSync(
    cataloguePath,
    `# Written by \`agora models pull\`: local models run by llama.cpp in the arena's own process.\n# Edit freely; \`agora models pull\` keeps the other entries and writes its own again.\n${stringify(
      { models: [...earlier.filter((entry) => !pulledIds.has(entry.id)), ...entries] },
    )}`,
  );
}

function earlierEntries(text: string): Record<string, unknown>[] {
  try {
    const models = (parse(text) as { models?: unknown } | null)?.models;
    return Array.isArray(models)
      ? models.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && 'id' in entry)
      : [];
  } catch {
    return [];
  }
}
