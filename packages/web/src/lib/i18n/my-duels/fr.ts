/** French messages of the my-duels area (the reference: every other language has the same keys). */
export const fr = {} as const;
