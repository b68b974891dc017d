import { getKey } from '/console/key.js';

/** A refused or failed API call: the status, FastAPI's `detail` and the Retry-After seconds. */
export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After as whole seconds (it may also be an HTTP date), or null. */
export function retryAfterSeconds(headers) {
  const value = headers.get('Retry-After');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Headers of every API request: the key travels here and nowhere else. */
export function authHeaders(extra = {}) {
  const key = getKey();
  return { ...(key && { Authorization: `Bearer ${key}` }), ...extra };
}

/** The ApiError of a non-2xx response (FastAPI's `detail`, else the status text). */
export async function errorOf(response) {
  let detail = response.statusText || `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (body && 'detail' in body) detail = body.detail;
  } catch {
    // A body that is not JSON keeps the status text.
  }
  return new ApiError(response.status, detail, retryAfterSeconds(response.headers));
}

/**
 * Calls the API on this origin. `path` must start with /v1/. Resolves to {status, data}; throws
 * ApiError for any non-2xx answer, and for a network failure (status 0).
 */
export async function api(method, path, { body, signal, query } = {}) {
  if (!path.startsWith('/v1/')) throw new Error(`not an API path: ${path}`);
  const url = query
    ? `${path}?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''))}`
    : path;
  let response;
  try {
    response = await fetch(url, {
      method,
      signal,
      credentials: 'omit',
      headers: authHeaders({
        Accept: 'application/json',
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new ApiError(0, `Could not reach the service: ${error?.message ?? error}`);
  }
  if (!response.ok) throw await errorOf(response);
  const data = response.status === 204 ? null : await response.json();
  return { status: response.status, data };
}

const RUN_ENDS = new Set(['completed', 'failed', 'cancelled']);

/**
 * A run's view once it shows the run ended: read again (every 200 ms, up to `tries` times) while
 * it does not, since the view is served from a read model that may apply the run's last event a
 * moment after its stream delivered it. The last view read when it never does.
 */
export async function viewOnceEnded(path, { signal, query, tries = 50 } = {}) {
  let view;
  for (let i = 0; i < tries; i++) {
    view = (await api('GET', path, { signal, query })).data;
    if (RUN_ENDS.has(view.status) || signal?.aborted) return view;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return view;
}
