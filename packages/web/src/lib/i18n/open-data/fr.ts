/** French messages of the open-data area (the reference: every other language has the same keys). */
export const fr = {} as const;
