/**
 * Where and why CPython's `json.loads` rejects a document, so a malformed body gets FastAPI's
 * `{"type":"json_invalid","loc":["body",pos],"ctx":{"error":msg}}` with Python's own msg and position.
 * Mirrors the C scanner (Modules/_json.c), which CPython uses: positions count code points.
 * NaN/Infinity, which Python accepts, are rejected like JSON.parse does (see report).
 */
export interface JsonDecodeError {
  msg: string;
  pos: number;
}

export interface PythonJsonOptions {
  /** Python <= 3.12 wording for trailing commas ("Expecting value" / "Expecting property name..."). */
  legacyTrailingComma?: boolean;
}

class Stop {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex4 = (s: string) => /^[0-9a-fA-F]{4}$/.test(s);

/** The first error CPython would report for `text`, or undefined when it parses. */
export function pythonJsonError(text: string, opts: PythonJsonOptions = {}): JsonDecodeError | undefined {
  const s = Array.from(text);
  const n = s.length;
  const stop = (msg: string, pos: number): never => {
    throw new Stop(msg, pos);
  };
  const ws = (i: number) => {
    while (i < n && WS.has(s[i])) i++;
    return i;
  };
  const word = (i: number, w: string) => s.slice(i, i + w.length).join('') === w;

  const string = (i: number): number => {
    const begin = i - 1;
    for (;;) {
      while (i < n && s[i] !== '"' && s[i] !== '\\') {
        if (s[i].codePointAt(0)! <= 0x1f) stop('Invalid control character at', i);
        i++;
      }
      if (i >= n) stop('Unterminated string starting at', begin);
      if (s[i] === '"') return i + 1;
      i++; // past the backslash
      if (i >= n) stop('Unterminated string starting at', begin);
      if (s[i] !== 'u') {
        if (!ESCAPES.has(s[i])) stop('Invalid \\escape', i - 1);
        i++;
        continue;
      }
      const end = i + 5; // after \uXXXX
      if (end >= n) stop('Invalid \\uXXXX escape', i);
      const hex = s.slice(i + 1, end).join('');
      if (!isHex4(hex)) stop('Invalid \\uXXXX escape', i);
      i = end;
      const cp = parseInt(hex, 16);
      // A high surrogate swallows a following \uXXXX; a bad one is reported at its 'u'.
      if (cp >= 0xd800 && cp <= 0xdbff && end + 6 < n && s[end] === '\\' && s[end + 1] === 'u') {
        const low = s.slice(end + 2, end + 6).join('');
        if (!isHex4(low)) stop('Invalid \\uXXXX escape', end + 1);
        const cp2 = parseInt(low, 16);
        if (cp2 >= 0xdc00 && cp2 <= 0xdfff) i = end + 6;
      }
    }
  };

  const number = (start: number): number => {
    let i = start;
    if (s[i] === '-' && ++i >= n) stop('Expecting value', start);
    if (s[i] === '0') i++;
    else if (isDigit(s[i])) while (isDigit(s[i])) i++;
    else stop('Expecting value', start);
    if (s[i] === '.' && isDigit(s[i + 1])) {
      i += 2;
      while (isDigit(s[i])) i++;
    }
    if ((s[i] === 'e' || s[i] === 'E') && i + 1 < n) {
      let j = i + 1;
      if ((s[j] === '+' || s[j] === '-') && j + 1 < n) j++;
      if (isDigit(s[j])) {
        while (isDigit(s[j])) j++;
        i = j;
      }
    }
    return i;
  };

  const object = (i: number): number => {
    i = ws(i);
    if (s[i] === '}') return i + 1;
    for (;;) {
      if (s[i] !== '"') stop('Expecting property name enclosed in double quotes', i);
      i = ws(string(i + 1));
      if (s[i] !== ':') stop("Expecting ':' delimiter", i);
      i = ws(value(ws(i + 1)));
      if (s[i] === '}') return i + 1;
      if (s[i] !== ',') stop("Expecting ',' delimiter", i);
      const comma = i;
      i = ws(i + 1);
      if (s[i] === '}' && !opts.legacyTrailingComma) stop('Illegal trailing comma before end of object', comma);
    }
  };

  const array = (i: number): number => {
    i = ws(i);
    if (s[i] === ']') return i + 1;
    for (;;) {
      i = ws(value(i));
      if (s[i] === ']') return i + 1;
      if (s[i] !== ',') stop("Expecting ',' delimiter", i);
      const comma = i;
      i = ws(i + 1);
      if (s[i] === ']' && !opts.legacyTrailingComma) stop('Illegal trailing comma before end of array', comma);
    }
  };

  function value(i: number): number {
    if (i >= n) stop('Expecting value', i);
    switch (s[i]) {
      case '"':
        return string(i + 1);
      case '{':
        return object(i + 1);
      case '[':
        return array(i + 1);
    }
    for (const w of ['null', 'true', 'false']) if (word(i, w)) return i + w.length;
    return number(i);
  }

  try {
    const end = ws(value(ws(0)));
    if (end !== n) stop('Extra data', end);
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { msg: e.msg, pos: e.pos };
    throw e;
  }
}
