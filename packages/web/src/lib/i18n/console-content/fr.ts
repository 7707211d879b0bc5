/** French messages of the console-content area (the reference: every other language has the same keys). */
export const fr = {
  'console.content.nav': 'Contenu',
};
