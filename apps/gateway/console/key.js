/**
 * The API key lives in this tab's sessionStorage only (never localStorage, never a URL), and leaves
 * the page only in the Authorization header of same-origin /v1 requests (api.js).
 */
const STORAGE_KEY = 'wr.apiKey';
const listeners = new Set();

export function getKey() {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

export function setKey(value) {
  const key = value.trim();
  if (key) sessionStorage.setItem(STORAGE_KEY, key);
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener(Boolean(key));
}

export const hasKey = () => getKey() !== '';

/** Called with `true`/`false` whenever a key is saved or forgotten. */
export function onKeyChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
