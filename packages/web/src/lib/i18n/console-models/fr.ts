/** French messages of the console-models area (the reference: every other language has the same keys). */
export const fr = {
  'console.models.nav': 'Modèles',
};
