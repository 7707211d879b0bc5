/** French messages of the console-activity area (the reference: every other language has the same keys). */
export const fr = {
  'console.activity.nav': 'Activité',
};
