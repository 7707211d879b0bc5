/** French messages of the honesty area (the reference: every other language has the same keys). */
export const fr = {} as const;
