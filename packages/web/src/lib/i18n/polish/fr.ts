/** French messages of the polish area (the reference: every other language has the same keys). */
export const fr = {
  'polish.menu': 'Menu',
} as const;
