import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import { Marked } from 'marked';

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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Model output is untrusted. Raw HTML in the markdown is shown as text (never parsed), and the
 * rendered HTML still goes through DOMPurify with a short allow-list of URL schemes: no script,
 * no event handler, no `javascript:` link, no remote image, no inline style can come through.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text ?? ''),
    code: ({ text, lang }) => {
      const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      const known = language !== '' && hljs.getLanguage(language) !== undefined;
      const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
      return `<pre><code class="hljs${known ? ` language-${escapeHtml(language)}` : ''}">${body}</code></pre>\n`;
    },
  },
});

const purify = DOMPurify(typeof window === 'undefined' ? undefined : window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow ugc');
  }
});

const PURIFY_CONFIG = {
  FORBID_TAGS: [
    'style',
    'img',
    'svg',
    'math',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'object',
    'embed',
    'video',
    'audio',
    'source',
    'link',
    'meta',
    'base',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset', 'action', 'formaction'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  ALLOW_DATA_ATTR: false,
};

/** Markdown → safe HTML. Pathological input (e.g. thousands of nesting levels) falls back to plain text. */
export function renderMarkdown(source: string): string {
  let html: string;
  try {
    html = marked.parse(source) as string;
  } catch {
    html = `<p>${escapeHtml(source)}</p>`;
  }
  return purify.sanitize(html, PURIFY_CONFIG);
}
