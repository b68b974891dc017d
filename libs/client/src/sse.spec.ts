import fc from 'fast-check';
import { MAX_FRAME_CHARS, readSse, type SseFrame } from './sse';

const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
const collect = async (chunks: Uint8Array[]) => {
  const frames: SseFrame[] = [];
  for await (const frame of readSse(streamOf(chunks))) frames.push(frame);
  return frames;
};
const bytes = (text: string) => new TextEncoder().encode(text);

const WIRE =
  ': connected\r\n\r\n' +
  'id: 3\nevent: run.started\ndata: {"a":1}\n\n' +
  ': keep-alive\n\n' +
  'id: 7\revent: page.fetched\rdata: {"url":"https://é.test/ü"}\r\r' +
  'id: 9\r\nevent: run.completed\r\ndata: line one\r\ndata:line two\r\n\r\n' +
  'id: 10\n\n' +
  'data: no id or name\n\n';
const EXPECTED: SseFrame[] = [
  { id: '3', event: 'run.started', data: '{"a":1}' },
  { id: '7', event: 'page.fetched', data: '{"url":"https://é.test/ü"}' },
  { id: '9', event: 'run.completed', data: 'line one\nline two' },
  { event: 'message', data: 'no id or name' },
];

describe('readSse', () => {
  it('reads frames with LF, CR and CRLF line ends, skipping comments and frames without data', async () => {
    expect(await collect([bytes(WIRE)])).toEqual(EXPECTED);
  });

  it('reads the same frames however the bytes are cut into chunks (inside a CRLF, inside a UTF-8 character)', async () => {
    const wire = bytes(WIRE);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: wire.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          const at = [0, ...cuts.sort((a, b) => a - b), wire.length];
          const chunks = at.slice(1).map((end, i) => wire.slice(at[i], end));
          expect(await collect(chunks)).toEqual(EXPECTED);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('cuts a line that never ends past the bound instead of buffering it', async () => {
    const big = new Uint8Array(1024 * 1024).fill(0x61);
    const chunks = Array.from({ length: MAX_FRAME_CHARS / big.length + 1 }, () => big);
    await expect(collect([bytes('data: '), ...chunks])).rejects.toThrow(
      `server-sent event line over ${MAX_FRAME_CHARS} characters`,
    );
  });

  it('calls onIdle when no byte comes for idleMs (which ends the reading by aborting the body)', async () => {
    let source!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        source = controller;
        controller.enqueue(bytes('data: first\n\n'));
      },
    });
    const frames: SseFrame[] = [];
    const started = Date.now();
    const reading = (async () => {
      for await (const frame of readSse(body, { idleMs: 150, onIdle: () => source.error(new Error('idle')) }))
        frames.push(frame);
    })();
    await expect(reading).rejects.toThrow('idle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(frames).toEqual([{ event: 'message', data: 'first' }]);
  });
});
