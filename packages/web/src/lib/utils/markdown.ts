import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import type { Highlighter } from './highlight';

/**
 * Code is highlighted once highlight.js has arrived: its own chunk, asked for when a duel starts
 * (answers take longer than that to bring code), so the arena page loads without it. A code block
 * rendered before it arrives is shown as plain text, never lost.
 */
let highlighter: Highlighter | null = null;
let loading: Promise<void> | undefined;
export function loadHighlighter(): Promise<void> {
  loading ??= import('./highlight').then(
    (module) => {
      highlighter = module.highlighter;
    },
    () => {
      // The chunk could not load: code stays plain, and a later call tries again.
      loading = undefined;
    },
  );
  return loading;
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
      const known = language !== '' && highlighter !== null && highlighter.knows(language);
      const body = known && highlighter ? highlighter.highlight(text, language) : escapeHtml(text);
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
