/**
 * Svelte action on a rendered markdown block: wraps each `<pre>` and adds a copy button. The label
 * follows the locale through the action's update.
 */
export function codeCopy(node: HTMLElement, labels: { copy: string; copied: string }) {
  let current = labels;
  const buttons: HTMLButtonElement[] = [];
  for (const pre of node.querySelectorAll('pre')) {
    pre.tabIndex = 0; // scrollable: reachable with the keyboard
    const wrap = document.createElement('div');
    wrap.className = 'code-wrap';
    pre.replaceWith(wrap);
    wrap.append(pre);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = current.copy;
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(pre.textContent ?? '').then(
        () => {
          button.textContent = current.copied;
          setTimeout(() => (button.textContent = current.copy), 1500);
        },
        () => {
          // Clipboard refused (no permission, insecure context): say nothing was copied; the code stays selectable.
        },
      );
    });
    wrap.prepend(button);
    buttons.push(button);
  }
  return {
    update(next: { copy: string; copied: string }) {
      current = next;
      for (const button of buttons) button.textContent = next.copy;
    },
  };
}
