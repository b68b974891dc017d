import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { DocumentUnreadable } from './document-error';

/** What one PDF's streams may decode to, all together (MB). */
export const MAX_PDF_DECODED_MB = 256;

const MB = 1024 * 1024;

/** The sentence of a PDF refused for what its streams decode to. */
export const decodesToMore = (mb: number) => `the document decodes to more than ${mb} MB`;

/**
 * Refuses a PDF whose streams decode to more than `maxMb` all together (a decode bomb: a few MB
 * of FlateDecode that inflates to gigabytes). PDF.js decodes a stream into buffers outside the
 * thread's heap, so the heap limit does not stop it: each stream is decoded here first through
 * its filters (Flate, LZW, RunLength, ASCIIHex, ASCII85, chained), counting and discarding the
 * output as it streams, and the count stops at the bound. Image filters (DCT, JPX, JBIG2, CCITT)
 * end a chain: text extraction never decodes them. Data that does not decode stops that stream's
 * count, as PDF.js would stop reading it.
 */
export async function checkPdfDecodedSize(bytes: Uint8Array, maxMb = MAX_PDF_DECODED_MB): Promise<void> {
  const limit = maxMb * MB;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  const count = (n: number) => {
    total += n;
    if (total > limit) throw new DocumentUnreadable(decodesToMore(maxMb));
  };
  for (const stream of pdfStreams(text)) {
    const filters = stream.filters ?? ['FlateDecode'];
    const known = filters.findIndex((filter) => !DECODERS[filter]);
    const chain = known < 0 ? filters : filters.slice(0, known);
    if (chain.length === 0) continue;
    const data = Buffer.from(bytes.buffer, bytes.byteOffset + stream.start, stream.end - stream.start);
    // Most streams are one Flate decoding to little: inflated at once, which costs far less than a
    // pipeline each. Larger ones, damaged ones and chains are streamed.
    if (chain.length === 1 && DECODERS[chain[0]!] === DECODERS.FlateDecode) {
      try {
        count(zlib.inflateSync(data, { maxOutputLength: AT_ONCE, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length);
        continue;
      } catch (error) {
        if (error instanceof DocumentUnreadable) throw error;
      }
    }
    await decodeCounting(
      data,
      chain.map((filter) => DECODERS[filter]!()),
      count,
    );
  }
}

/** A stream that inflates to at most this much is inflated at once (bytes). */
const AT_ONCE = 4 * MB;

/** Runs `data` through `chain`, counting every stage's output as it streams (nothing is kept); data that does not decode ends the count quietly, the bound ends it with its error. */
async function decodeCounting(data: Buffer, chain: Transform[], count: (n: number) => void): Promise<void> {
  const counted = (stage: Transform) => [
    stage,
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        try {
          count(chunk.length);
          callback(null, chunk);
        } catch (error) {
          callback(error as Error);
        }
      },
    }),
  ];
  const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  try {
    await pipeline([Readable.from([data], { objectMode: false }), ...chain.flatMap(counted), discard]);
  } catch (error) {
    if (error instanceof DocumentUnreadable) throw error;
    // Data that does not decode: what decoded so far is counted.
  }
}

interface PdfStream {
  start: number;
  end: number;
  /** The filters named in the dictionary (null when they cannot be resolved: tried as Flate). */
  filters: string[] | null;
}

/** Every stream of the file, found as PDF.js finds them: a dictionary, `stream` and an end of line, data of `/Length` when `endstream` follows it, else up to the first `endstream`. */
export function* pdfStreams(text: string): Generator<PdfStream> {
  const keyword = />>(?:[\0\t\n\f\r ]|%[^\r\n]*)*stream/g;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    let start = m.index + m[0].length;
    while (start < text.length && text[start] !== '\n' && text[start] !== '\r') start++;
    if (text[start] === '\r' && text[start + 1] === '\n') start++;
    start++;
    // A dictionary not found (longer than 256 KB): its stream is tried as Flate up to its endstream.
    const dict = dictionaryBefore(text, m.index + 1);
    const length = dict === null ? null : numberOf(text, valueOf(dict, 'Length'));
    let end = -1;
    if (
      length !== null &&
      length >= 0 &&
      start + length <= text.length &&
      /^[\0\t\n\f\r ]*endstream/.test(text.slice(start + length, start + length + 64))
    )
      end = start + length;
    if (end < 0) end = text.indexOf('endstream', start);
    if (end < 0) end = text.length;
    keyword.lastIndex = Math.max(keyword.lastIndex, end);
    yield { start, end, filters: dict === null ? null : filtersOf(text, valueOf(dict, 'Filter')) };
  }
}

/** The dictionary whose `>>` ends at `close` (its text, `<<` to `>>`), or null. */
function dictionaryBefore(text: string, close: number): string | null {
  let depth = 0;
  for (let i = close; i > 0 && close - i < 256 * 1024;) {
    if (text[i] === '>' && text[i - 1] === '>') {
      depth++;
      i -= 2;
    } else if (text[i] === '<' && text[i - 1] === '<') {
      depth--;
      if (depth === 0) return text.slice(i - 1, close + 1);
      i -= 2;
    } else i--;
  }
  return null;
}

/** The value of `/key` at the top level of a dictionary's text (a name, a number, a reference, an array), or undefined. */
function valueOf(dict: string, key: string): string | undefined {
  let depth = 0;
  for (let i = 2; i < dict.length - 2; i++) {
    const c = dict[i];
    if (c === '<' && dict[i + 1] === '<') {
      depth++;
      i++;
    } else if (c === '>' && dict[i + 1] === '>') {
      depth--;
      i++;
    } else if (c === '(') {
      // A string: skipped with its nesting and escapes.
      for (let nest = 1, j = i + 1; j < dict.length; j++) {
        if (dict[j] === '\\') j++;
        else if (dict[j] === '(') nest++;
        else if (dict[j] === ')' && --nest === 0) {
          i = j;
          break;
        }
      }
    } else if (c === '/' && depth === 0) {
      const name = /^\/([^\0\t\n\f\r /<>[\]()%]*)/.exec(dict.slice(i, i + 128))![1]!;
      i += name.length;
      if (decodeName(name) !== key) continue;
      const value =
        /^(?:[\0\t\n\f\r ]|%[^\r\n]*)*(\[[^\]]*\]|\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+R\b|\/[^\0\t\n\f\r /<>[\]()%]*|[-+\d.]+)/.exec(
          dict.slice(i + 1, i + 4096),
        );
      return value?.[1];
    }
  }
  return undefined;
}

const decodeName = (name: string) =>
  name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The text of indirect object `n g` when it is written out in the file (not inside an object stream). */
function resolve(text: string, value: string | undefined): string | undefined {
  const ref = value && /^(\d+)[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+R$/.exec(value);
  if (!ref) return value;
  const object = new RegExp(
    `(?:^|[^\\d])${ref[1]}[\\0\\t\\n\\f\\r ]+${ref[2]}[\\0\\t\\n\\f\\r ]+obj([\\s\\S]{0,4096}?)endobj`,
  ).exec(text);
  return object ? object[1]!.trim() : undefined;
}

function numberOf(text: string, value: string | undefined): number | null {
  const resolved = resolve(text, value);
  return resolved !== undefined && /^\d+$/.test(resolved) ? Number(resolved) : null;
}

function filtersOf(text: string, value: string | undefined): string[] | null {
  if (value === undefined) return [];
  const resolved = resolve(text, value);
  if (resolved === undefined) return null;
  const names = resolved.match(/\/[^\0\t\n\f\r /<>[\]()%]*/g);
  // An array holding references, or anything else unread: tried as Flate.
  if (!names || (resolved.startsWith('[') && /\bR\b/.test(resolved))) return null;
  return names.map((n) => decodeName(n.slice(1)));
}

/** Streaming decoders of the filters text extraction decodes, by name (image filters and unknown ones have none). */
const DECODERS: Record<string, (() => Transform) | undefined> = Object.create(null);
DECODERS.FlateDecode = DECODERS.Fl = () =>
  zlib.createInflate({ chunkSize: 256 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH });
DECODERS.LZWDecode = DECODERS.LZW = () => new LzwDecoder();
DECODERS.RunLengthDecode = DECODERS.RL = () => new RunLengthDecoder();
DECODERS.ASCIIHexDecode = DECODERS.AHx = () => new HexDecoder();
DECODERS.ASCII85Decode = DECODERS.A85 = () => new Ascii85Decoder();

/** Output is handed on in pieces of this size. */
const PIECE = 256 * 1024;

/** Collects output bytes and pushes them in pieces. */
abstract class ByteDecoder extends Transform {
  private out = Buffer.alloc(PIECE);
  private used = 0;
  private done = false;

  protected emit1(byte: number): void {
    this.out[this.used++] = byte;
    if (this.used === PIECE) this.flushOut();
  }

  protected emitRun(byte: number, n: number): void {
    while (n > 0) {
      const k = Math.min(n, PIECE - this.used);
      this.out.fill(byte, this.used, this.used + k);
      this.used += k;
      n -= k;
      if (this.used === PIECE) this.flushOut();
    }
  }

  protected end1(): void {
    this.done = true;
  }

  private flushOut(): void {
    this.push(Buffer.from(this.out.subarray(0, this.used)));
    this.used = 0;
  }

  protected abstract decode(chunk: Buffer): void;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      if (!this.done) this.decode(chunk);
      if (this.used > 0) this.flushOut();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}

class RunLengthDecoder extends ByteDecoder {
  /** Literal bytes still to copy. */
  private literal = 0;
  /** The next byte is repeated this many times. */
  private repeat = 0;
  protected decode(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.literal > 0) {
        this.emit1(byte);
        this.literal--;
      } else if (this.repeat > 0) {
        this.emitRun(byte, this.repeat);
        this.repeat = 0;
      } else if (byte === 128) return this.end1();
      else if (byte < 128) this.literal = byte + 1;
      else this.repeat = 257 - byte;
    }
  }
}

class HexDecoder extends ByteDecoder {
  private high = -1;
  protected decode(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 0x3e) return this.end1();
      const digit =
        c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
      if (digit < 0) continue;
      if (this.high < 0) this.high = digit;
      else {
        this.emit1((this.high << 4) | digit);
        this.high = -1;
      }
    }
  }
}

class Ascii85Decoder extends ByteDecoder {
  private group: number[] = [];
  protected decode(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 0x7e) return this.end1();
      if (c === 0x7a && this.group.length === 0) {
        this.emitRun(0, 4);
        continue;
      }
      if (c < 0x21 || c > 0x75) continue;
      this.group.push(c - 0x21);
      if (this.group.length === 5) {
        const value = this.group.reduce((v, d) => v * 85 + d, 0);
        for (let shift = 24; shift >= 0; shift -= 8) this.emit1(Math.floor(value / 2 ** shift) & 0xff);
        this.group = [];
      }
    }
  }
}

/** LZW as PDF writes it (early change, 9 to 12-bit codes); each code's output is copied from the table's entries. */
class LzwDecoder extends ByteDecoder {
  private bits = 0;
  private width = 0;
  private codeLength = 9;
  private entries: Array<Buffer> = [];
  private previous: Buffer | null = null;

  constructor() {
    super();
    this.reset();
  }

  private reset(): void {
    this.entries = Array.from({ length: 258 }, (_, i) => Buffer.from([i & 0xff]));
    this.codeLength = 9;
    this.previous = null;
  }

  protected decode(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      this.bits = ((this.bits << 8) | chunk[i]!) & 0xffffff;
      this.width += 8;
      while (this.width >= this.codeLength) {
        const code = (this.bits >>> (this.width - this.codeLength)) & ((1 << this.codeLength) - 1);
        this.width -= this.codeLength;
        if (code === 256) {
          this.reset();
          continue;
        }
        if (code === 257) return this.end1();
        let entry: Buffer;
        if (code < this.entries.length) entry = this.entries[code]!;
        else if (code === this.entries.length && this.previous)
          entry = Buffer.concat([this.previous, this.previous.subarray(0, 1)]);
        else throw new Error('bad LZW code');
        for (let j = 0; j < entry.length; j++) this.emit1(entry[j]!);
        if (this.previous && this.entries.length < 4096)
          this.entries.push(Buffer.concat([this.previous, entry.subarray(0, 1)]));
        this.previous = entry;
        const next = this.entries.length + 1;
        this.codeLength = next >= 2048 ? 12 : next >= 1024 ? 11 : next >= 512 ? 10 : 9;
      }
    }
  }
}
