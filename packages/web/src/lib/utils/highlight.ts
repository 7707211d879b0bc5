import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('sql', sql);
hljs.registerLanguage('typescript', typescript);
for (const [alias, name] of [
  ['sh', 'bash'],
  ['shell', 'bash'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
] as const) {
  hljs.registerAliases(alias, { languageName: name });
}

/** The code highlighter of answers, loaded on demand by markdown.ts (its output goes through DOMPurify there). */
export interface Highlighter {
  knows(language: string): boolean;
  highlight(code: string, language: string): string;
}

export const highlighter: Highlighter = {
  knows: (language) => hljs.getLanguage(language) !== undefined,
  highlight: (code, language) => hljs.highlight(code, { language, ignoreIllegals: true }).value,
};
