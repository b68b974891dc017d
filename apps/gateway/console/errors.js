import { h } from '/console/dom.js';

export const AUTH_MESSAGE = 'The API key was refused (401): check it and save it again';

/** The sentence shown for an error that is not tied to a field. */
export function messageOf(error) {
  if (!error) return 'Something went wrong';
  const { status, detail, retryAfter } = error;
  if (status === undefined) return String(error.message ?? error);
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  switch (status) {
    case 0:
      return text;
    case 401:
      return AUTH_MESSAGE;
    case 429:
      return `Too many requests (429): try again in ${retryAfter ?? 1} s`;
    case 503:
      return `The service is not ready (503): try again in a moment${retryAfter !== null && retryAfter !== undefined ? ` (retry after ${retryAfter} s)` : ''}`;
    case 422:
      return `The request was refused (422): ${Array.isArray(detail) ? detail.map((d) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ') : text}`;
    default:
      return `Request failed (${status}): ${text}`;
  }
}

/** The 401 sentence next to the key entry (header), or nothing when `message` is empty. */
export function showAuthError(message) {
  const slot = document.getElementById('auth-error-slot');
  if (!slot) return;
  slot.replaceChildren(
    ...(message ? [h('p', { class: 'error', role: 'alert', 'data-testid': 'auth-error' }, message)] : []),
  );
}

/** Removes the errors a previous attempt left in `scope`. */
export function clearErrors(scope) {
  for (const el of scope.querySelectorAll('[data-testid="error"], [data-testid="field-error"]')) el.remove();
  for (const el of scope.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

/** A general error paragraph, for a caller that places it itself. */
export const errorElement = (message) => h('p', { class: 'error', role: 'alert', 'data-testid': 'error' }, message);

/**
 * Shows `error` where it belongs: a 401 next to the key entry; each 422 item right after the input
 * of the field its `loc` names (the last element of `loc` the form knows, so
 * ["body","queries",2] is `queries`); everything else as one sentence in `general`.
 * `fields` maps field names to their input elements (or to functions returning one).
 */
export function showError(error, { scope, general, fields = {} }) {
  if (error?.name === 'AbortError') return;
  if (scope) clearErrors(scope);
  const place = (message) => general?.append(errorElement(message));
  if (error?.status === 401) {
    showAuthError(AUTH_MESSAGE);
    place(`${AUTH_MESSAGE} (key entry at the top of the page).`);
    return;
  }
  if (error?.status === 422 && Array.isArray(error.detail)) {
    const unplaced = [];
    for (const item of error.detail) {
      const loc = Array.isArray(item.loc) ? item.loc : [];
      const field = [...loc].reverse().find((part) => typeof part === 'string' && part in fields);
      const target = field && (typeof fields[field] === 'function' ? fields[field]() : fields[field]);
      if (!target) {
        unplaced.push(item);
        continue;
      }
      const where = loc.slice(loc.indexOf(field) + 1);
      const message = `${item.msg}${where.length ? ` (at ${where.join('.')})` : ''}`;
      target.after(
        h(
          'p',
          { class: 'error field-error', role: 'alert', 'data-testid': 'field-error', 'data-field': field },
          message,
        ),
      );
      target.setAttribute('aria-invalid', 'true');
    }
    if (unplaced.length) place(messageOf({ status: 422, detail: unplaced }));
    return;
  }
  place(messageOf(error));
}
