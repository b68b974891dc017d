/** One server-sent event: its `id` (when the frame set one), its name (`message` by default) and its data lines joined. */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

/** Longest frame kept in memory (a stream that never ends a frame is cut, not buffered without end). */
export const MAX_FRAME_CHARS = 16 * 1024 * 1024;

/**
 * Frames from a text/event-stream body, as the HTML standard's event stream interpretation reads
 * them: lines end in CRLF, LF or CR; `:` starts a comment (the keep-alives); a blank line ends a
 * frame; a frame without data is not dispatched. `idleMs`: no byte for that long calls `onIdle`
 * (which should abort the body, ending the iteration with an error).
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  options: { idleMs?: number; onIdle?: () => void } = {},
): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let frame: { id?: string; event?: string; data: string[] } = { data: [] };
  let frameChars = 0;
  /** How far the buffer is known to hold no line end (a long line is not scanned again per chunk). */
  let scanned = 0;
  try {
    for (;;) {
      const timer = options.idleMs ? setTimeout(() => options.onIdle?.(), options.idleMs) : undefined;
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } finally {
        clearTimeout(timer);
      }
      buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      // A CR at the very end may be the first half of a CRLF: it waits for the next chunk.
      for (let end = lineEnd(buffer, scanned, chunk.done); end !== -1; end = lineEnd(buffer, 0, chunk.done)) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
        if (line === '') {
          if (frame.data.length > 0)
            yield {
              ...(frame.id !== undefined ? { id: frame.id } : {}),
              event: frame.event || 'message',
              data: frame.data.join('\n'),
            };
          frame = { data: [] };
          frameChars = 0;
          continue;
        }
        frameChars += line.length;
        if (frameChars > MAX_FRAME_CHARS) throw new Error(`server-sent event over ${MAX_FRAME_CHARS} characters`);
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') frame.data.push(value);
        else if (field === 'event') frame.event = value;
        else if (field === 'id' && !value.includes('\0')) frame.id = value;
      }
      scanned = Math.max(0, buffer.length - 1);
      if (buffer.length > MAX_FRAME_CHARS) throw new Error(`server-sent event line over ${MAX_FRAME_CHARS} characters`);
      if (chunk.done) return;
    }
  } finally {
    // Leaving early (a break, an error) closes the connection rather than leaving it open.
    await reader.cancel().catch(() => undefined);
  }
}

function lineEnd(buffer: string, from: number, done: boolean): number {
  for (let i = from; i < buffer.length; i++) {
    const c = buffer[i];
    if (c === '\n') return i;
    if (c === '\r') return i + 1 < buffer.length || done ? i : -1;
  }
  return -1;
}
