import { i18n } from '$lib/i18n/index.svelte';

/** A rating change with its sign, to one decimal, in the page's language. */
export const signedPoints = (value: number): string => (value > 0 ? `+${i18n.number(value, 1)}` : i18n.number(value, 1));
