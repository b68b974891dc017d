import * as iconv from 'iconv-lite';

/** The media types we decode to text; anything else is refused before its body is read. */
export const TEXT_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'text/xml',
  'application/xml',
  'application/json',
]);

export function parseContentType(header: string | undefined): { mediaType: string; charset?: string } {
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1])
    .find((c): c is string => Boolean(c));
  return { mediaType: type.trim().toLowerCase(), charset };
}

/**
 * WHATWG Encoding labels that differ from iconv-lite's reading: browsers decode "iso-8859-1" and
 * "us-ascii" as windows-1252 (pages labelled latin-1 routinely contain 0x80-0x9F punctuation).
 */
const ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  iso8859_1: 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  cp1252: 'windows-1252',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  sjis: 'shift_jis',
  'x-sjis': 'shift_jis',
  ms_kanji: 'shift_jis',
  'windows-31j': 'shift_jis',
};

function normaliseCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const l = label.trim().toLowerCase();
  const name = ALIASES[l] ?? l;
  return iconv.encodingExists(name) ? name : undefined; // an unknown label is as good as none
}

function sniffBom(body: Buffer): { charset: string; length: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  return undefined;
}

/** `<meta charset>` or `<meta http-equiv content="...; charset=x">` (one regex catches both), or `<?xml encoding>`. */
function sniffDeclared(body: Buffer, mediaType: string): string | undefined {
  const head = body.subarray(0, 4096).toString('latin1');
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') {
    const meta = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta;
  }
  if (mediaType.endsWith('xml')) return /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1];
  return undefined;
}

/**
 * Decode a text body. Precedence: BOM, Content-Type charset, in-document declaration (first
 * 4 KiB), UTF-8. The BOM wins over the header as in the WHATWG encoding sniffing algorithm: a
 * body that starts with a UTF-8 BOM is UTF-8 whatever a misconfigured server says.
 */
export function decodeBody(body: Buffer, mediaType: string, headerCharset?: string): { charset: string; text: string } {
  const bom = sniffBom(body);
  if (bom)
    return { charset: bom.charset, text: iconv.decode(body.subarray(bom.length), bom.charset, { stripBOM: false }) };
  const charset =
    normaliseCharset(headerCharset) ??
    (mediaType === 'application/json' ? undefined : normaliseCharset(sniffDeclared(body, mediaType))) ??
    'utf-8';
  return { charset, text: iconv.decode(body, charset) };
}
