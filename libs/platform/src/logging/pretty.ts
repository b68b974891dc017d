import { Writable } from 'node:stream';

const LEVEL_LABEL: Record<string, string> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO ',
  warn: 'WARN ',
  error: 'ERROR',
  fatal: 'FATAL',
};
const COLOUR: Record<string, string> = {
  warn: '\x1b[33m',
  error: '\x1b[31m',
  fatal: '\x1b[31m',
  debug: '\x1b[2m',
  trace: '\x1b[2m',
};
const RESET = '\x1b[0m';
/** Fields every line has: shown in the line's head, not among its details. */
const HEAD = new Set(['level', 'time', 'pid', 'service', 'context', 'msg']);

/** One JSON log line as a person reads it: `12:04:05 INFO  [search] Boot: search listening port=8080`. */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = String(entry.level ?? 'info');
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const details = Object.entries(entry)
    .filter(([key, value]) => !HEAD.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const message = [
    entry.context ? `${String(entry.context)}:` : '',
    entry.msg === undefined ? '' : String(entry.msg),
    details,
  ]
    .filter(Boolean)
    .join(' ');
  const line = `${time} ${LEVEL_LABEL[level] ?? level} [${String(entry.service ?? '')}] ${message}`;
  return colour && COLOUR[level] ? `${COLOUR[level]}${line}${RESET}` : line;
}

/** A destination for pino that writes each JSON line as a readable line (on a terminal, in colour). */
export function prettyStream(out: NodeJS.WriteStream = process.stdout): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        out.write(prettyLine(pending.slice(0, newline), out.isTTY === true) + '\n');
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
}
