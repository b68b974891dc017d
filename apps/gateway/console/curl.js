import { h } from '/console/dom.js';

/** Quotes a string for a POSIX shell: '...' with each ' written as '\''. */
const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The curl command of a request, with the key as the $WR_API_KEY placeholder (never the key itself). */
export function curlCommand(method, path, body) {
  const url = `${location.origin}${path}`;
  const parts = [`curl -X ${method} ${shellQuote(url)}`, `-H "Authorization: Bearer $WR_API_KEY"`];
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  return parts.join(' \\\n  ');
}

/** A <pre> holding the command, with a copy button. */
export function curlBlock(command, testid) {
  const pre = h('pre', { class: 'curl', 'data-testid': testid }, command);
  const button = h('button', { type: 'button', class: 'secondary small' }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(command);
      button.textContent = 'Copied';
    } catch {
      // No clipboard (insecure origin): select the text so Ctrl-C copies it.
      getSelection().selectAllChildren(pre);
      button.textContent = 'Selected: press Ctrl-C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  return h(
    'div',
    { class: 'curl-block' },
    h('div', { class: 'curl-head' }, h('span', {}, 'The same request with curl'), button),
    pre,
  );
}
