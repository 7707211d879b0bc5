/** French messages of the console-review area (the reference: every other language has the same keys). */
export const fr = {
  'console.review.nav': 'Revue',
  'console.integrity.nav': 'Intégrité des votes',
};
