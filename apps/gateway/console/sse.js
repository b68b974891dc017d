import { authHeaders, errorOf } from '/console/api.js';
import { sleep } from '/console/dom.js';

export const TERMINAL_EVENTS = new Set(['run.completed', 'run.failed', 'run.cancelled']);
/** What followEvents resolves with when `isEnded()` says the run is over. */
export const ENDED = Object.freeze({ id: null, event: 'stream.ended', data: null });
const BACKOFF_MS = [500, 1000, 2000, 4000, 5000];

/**
 * Feeds text chunks in, calls `dispatch({id, event, data})` for each complete event. Follows the
 * SSE format: `field: value` lines, blank line ends an event, `:` lines are comments, several
 * `data:` lines join with "\n", the last `id:` seen carries over to later events.
 */
export function sseParser(dispatch) {
  let buffer = '';
  let data = [];
  let event = '';
  let lastId = null;
  const line = (text) => {
    if (text === '') {
      if (data.length) {
        const raw = data.join('\n');
        let parsed = raw;
        try {
          parsed = JSON.parse(raw);
        } catch {
          // Not JSON: handed over as text.
        }
        dispatch({ id: lastId, event: event || 'message', data: parsed });
      }
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  };
  return (chunk) => {
    buffer += chunk;
    const parts = buffer.split(/\r\n|\r(?!$)|\n/);
    buffer = parts.pop();
    for (const part of parts) line(part);
  };
}

/**
 * Follows a run's server-sent events with fetch (EventSource cannot send the Authorization
 * header). When the connection drops before a terminal event, it reconnects after a short backoff
 * with `Last-Event-ID` set to the last id seen, so nothing is lost or repeated. When the server
 * closes the stream without a terminal event, `isEnded()` (optional) is asked whether the run has
 * ended anyway before reconnecting.
 *
 * Resolves with the terminal event, ENDED when the run ended without this client seeing its
 * terminal event, or null once `signal` aborts. Rejects with the ApiError of an
 * answer that retrying cannot fix (401, 404, 422...).
 */
export async function followEvents(path, { signal, onEvent, onConnection = () => {}, isEnded }) {
  let lastId = null;
  let attempt = 0;
  while (!signal?.aborted) {
    let terminal = null;
    let received = false;
    try {
      onConnection(attempt === 0 && lastId === null ? 'connecting' : 'reconnecting');
      const response = await fetch(path, {
        signal,
        credentials: 'omit',
        cache: 'no-store',
        headers: authHeaders({ Accept: 'text/event-stream', ...(lastId !== null && { 'Last-Event-ID': lastId }) }),
      });
      if (!response.ok) {
        const error = await errorOf(response);
        if (error.status !== 429 && error.status < 500) throw error;
        onConnection('waiting');
        await sleep((error.retryAfter ?? 1) * 1000, signal);
        continue;
      }
      onConnection('open');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const feed = sseParser((event) => {
        if (terminal) return;
        received = true;
        if (event.id !== null) lastId = event.id;
        onEvent(event);
        if (TERMINAL_EVENTS.has(event.event)) terminal = event;
      });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feed(decoder.decode(value, { stream: true }));
        if (terminal) {
          reader.cancel().catch(() => {});
          break;
        }
      }
      if (terminal) {
        onConnection('closed');
        return terminal;
      }
      if (isEnded && (await isEnded())) {
        onConnection('closed');
        return ENDED;
      }
    } catch (error) {
      if (signal?.aborted || error?.name === 'AbortError') return null;
      if (error?.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      // A dropped connection (network error mid-stream): reconnect below.
    }
    if (received) attempt = 0;
    onConnection('reconnecting');
    await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)], signal);
    attempt += 1;
  }
  return null;
}
