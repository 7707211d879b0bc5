// A static SPA: no server rendering, no prerendering; the server's fallback serves index.html.
export const ssr = false;
export const prerender = false;
