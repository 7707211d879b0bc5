import type { ModelCard } from '@agora/contract';
import { t } from '../index.svelte';

/**
 * The catalogue's fields in the visitor's language (docs/languages.md#catalogue-fields): the
 * description in `locale`, else English, else the first the catalogue gives; a licence named by
 * its maker (`Apache 2.0`, `Llama 3.1 Community`) as it is, the generic "Proprietary" and an
 * unknown licence in words of the catalogue.
 */
export function modelDescription(model: Pick<ModelCard, 'description' | 'descriptions'>, locale: string): string | undefined {
  const texts = model.descriptions;
  return texts?.[locale] ?? texts?.en ?? model.description;
}

export function licenceName(model: Pick<ModelCard, 'license' | 'license_kind'>): string {
  if (model.license_kind === 'unknown') return t('site.license.unknown');
  return licenceText(model.license);
}

/** A licence's name where only the name is known (a leaderboard row): the generic "Proprietary" in words of the catalogue. */
export function licenceText(license: string): string {
  return /^proprietary$/i.test(license.trim()) ? t('site.license.proprietary') : license;
}

/** What the licence lets people do, in words (`permissive licence`, `closed model`…). */
export function licenceKind(model: Pick<ModelCard, 'license_kind'>): string {
  return t(`site.license_kind.${model.license_kind}`);
}

/** The operator guidance of `GET /models` (`setup.missing_keys`) in the visitor's language. */
export function setupText(missingKeys: readonly string[]): string {
  const first = missingKeys.length > 0 ? t('site.setup.keys', { keys: missingKeys.join(', ') }) : t('site.setup.no_keys');
  return `${first} ${t('site.setup.other_ways')}`;
}
