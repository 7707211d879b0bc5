import type { ExportableConversation } from './exportable';
import type { ExportModelFacts } from './conversation-rows';
import type { PreferenceStrength } from './preference-rows';

/** Which conversations, answers and pairs an export keeps, as `agora export` takes them (the card lists them). */
export interface ExportFilters {
  /** Keep conversations whose main language is one of these. */
  languages?: readonly string[] | undefined;
  /** Keep conversations with at least one of these topics. */
  categories?: readonly string[] | undefined;
  /** ISO-8601 bounds on the conversation's start: from inclusive, until exclusive. */
  from?: string | undefined;
  until?: string | undefined;
  /** Keep only answers of models under these licences (case-insensitive). */
  licenses?: readonly string[] | undefined;
  excludeLicenses?: readonly string[] | undefined;
  openWeightsOnly?: boolean | undefined;
  minPrefStrength?: PreferenceStrength | undefined;
  /** The licence the card declares for the published data (Hugging Face id). */
  datasetLicense?: string | undefined;
}

/** Language and topic filters, on the conversation as a whole. */
export function conversationFilter(filters: ExportFilters): (conversation: ExportableConversation) => boolean {
  const languages = filters.languages && filters.languages.length > 0 ? new Set(filters.languages) : undefined;
  const categories = filters.categories && filters.categories.length > 0 ? new Set(filters.categories) : undefined;
  return (conversation) =>
    (languages === undefined || languages.has(conversation.languages?.[0] ?? '')) &&
    (categories === undefined || (conversation.categories ?? []).some((category) => categories.has(category)));
}

/** Licence filters: models outside the catalogue have no known licence, so an allow-list leaves them out. */
export function modelFilter(filters: ExportFilters, models: ReadonlyMap<string, ExportModelFacts>): (modelId: string) => boolean {
  const allowed =
    filters.licenses && filters.licenses.length > 0 ? new Set(filters.licenses.map((license) => license.toLowerCase())) : undefined;
  const excluded = new Set((filters.excludeLicenses ?? []).map((license) => license.toLowerCase()));
  if (allowed === undefined && excluded.size === 0 && !filters.openWeightsOnly) return () => true;
  const cache = new Map<string, boolean>();
  return (modelId) => {
    let verdict = cache.get(modelId);
    if (verdict === undefined) {
      const facts = models.get(modelId);
      const license = facts?.license.toLowerCase();
      verdict =
        (allowed === undefined || (license !== undefined && allowed.has(license))) &&
        (license === undefined || !excluded.has(license)) &&
        (!filters.openWeightsOnly || facts?.openWeights === true);
      cache.set(modelId, verdict);
    }
    return verdict;
  };
}
