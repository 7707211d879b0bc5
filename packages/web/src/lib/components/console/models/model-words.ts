import type { MessageKey } from '$lib/i18n/index.svelte';

const KINDS = [
  'connection_error',
  'http_error',
  'first_token_timeout',
  'total_timeout',
  'empty_response',
  'malformed_stream',
  'stream_cut',
  'content_filter',
] as const;

/** The words for a failed call's kind (providers/spec.ts `UpstreamErrorKind`); an unknown kind is an unexpected error. */
export function errorKindKey(kind: string): MessageKey {
  return (KINDS as readonly string[]).includes(kind)
    ? (`console.models.error_kind.${kind}` as MessageKey)
    : 'console.models.error_kind.other';
}

/** A number field's value: empty is "not given", otherwise a finite number. */
export function numberOrNull(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined || text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const FIELD_LABELS: Record<string, MessageKey> = {
  status: 'console.models.field.status',
  params_b: 'console.models.field.params_b',
  active_params_b: 'console.models.field.active_params_b',
  license: 'console.models.field.license',
  license_url: 'console.models.field.license_url',
  pricing: 'console.models.field.pricing',
  description: 'console.models.field.descriptions',
};

/** The label of a fact the console changed (the API names it by its models.yaml field). */
export function fieldKey(field: string): MessageKey | undefined {
  return FIELD_LABELS[field];
}
