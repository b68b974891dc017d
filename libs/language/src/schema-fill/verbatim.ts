/**
 * The page's own characters for a quote a model gave: exact, or with whitespace runs and quote
 * styles differing (models re-wrap lines and straighten quotes). undefined when the page does not
 * say it.
 */
export function verifiedExcerpt(candidate: string, text: string): string | undefined {
  const quote = candidate.trim();
  if (!quote) return undefined;
  if (text.includes(quote)) return quote;
  const pattern = quote
    .split(/\s+/)
    .map((word) =>
      word
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/["“”]/g, '["“”]')
        .replace(/['‘’]/g, "['‘’]"),
    )
    .join('\\s+');
  return new RegExp(pattern, 'u').exec(text)?.[0];
}
