/** French messages of the console-publication area (the reference: every other language has the same keys). */
export const fr = {
  'console.publication.nav': 'Publication',
};
