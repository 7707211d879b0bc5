import { i18n } from '$lib/i18n/index.svelte';

// A static SPA: no server rendering, no prerendering; the server's fallback serves index.html.
export const ssr = false;
export const prerender = false;

/** The visitor's language is loaded before anything renders: no page ever shows a message key. */
export const load = async (): Promise<void> => {
  await i18n.init();
};
