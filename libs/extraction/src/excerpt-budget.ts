/**
 * `max_excerpt_chars` of POST /v1/search: one character budget over every excerpt-like string of
 * a response (snippet, excerpts, highlights, summary), spent in the order they are offered (rank
 * order, by the callers). A string that does not fit whole is cut, at a word boundary when one is
 * near, and then the budget is spent: what follows gets nothing rather than a stray word or two.
 * `null` is no budget: every string passes untouched.
 */
export class ExcerptBudget {
  private left: number | null;

  constructor(max: number | null) {
    this.left = max === null ? null : Math.max(0, max);
  }

  /** `text`, or as much of it as the budget has left ('' once it is spent). */
  take(text: string): string {
    if (this.left === null) return text;
    if (text.length <= this.left) {
      this.left -= text.length;
      return text;
    }
    const cut = cutAtWord(text, this.left);
    this.left = 0;
    return cut;
  }

  /** Each string in turn; those cut to nothing are left out (an empty list once the budget is spent). */
  takeAll(texts: string[]): string[] {
    return texts.map((text) => this.take(text)).filter((text) => text.length > 0);
  }
}

/**
 * At most `max` characters of `text`: up to the last whitespace when that keeps at least half of
 * them (so a long unbroken token is still cut, not dropped), else a hard cut.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const head = text.slice(0, max);
  if (/\s/.test(text[max]!)) return head.trimEnd();
  const space = head.search(/\s\S*$/);
  return space >= max / 2 ? head.slice(0, space).trimEnd() : head;
}
