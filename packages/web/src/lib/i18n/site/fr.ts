/** French messages of the site area (the reference: every other language has the same keys). */
export const fr = {} as const;
