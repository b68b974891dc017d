import { normalizeUrl } from '@app/urls';

/** What merging by URL needs of a hit: its URL, and the page text and date a better copy may lack. */
export interface MergeableHit {
  url: string;
  content?: string;
  date?: string | null;
}

export interface MergedHit<H extends MergeableHit> {
  /** The normalised URL (see `normalizeUrl`). */
  key: string;
  /** The best-scored copy; a text or date it lacks is taken from the copy it replaced. */
  hit: H;
  /** That copy's score. */
  score: number;
  /** First-seen position over every URL merged: 0, 1, 2, … */
  seen: number;
  /** The groups (queries, sub-queries) that found the URL, first-seen first. */
  queries: Set<number>;
}

/**
 * Hits merged by normalised URL, one rule for every caller: the best-scored copy wins, ties keep
 * the first. A hit whose URL normalises to nothing is not merged (there is nothing to key it by).
 */
export class UrlMerge<H extends MergeableHit> {
  private readonly byKey = new Map<string, MergedHit<H>>();

  /** Merges one hit found by `query`; the merged entry, or null when the URL is blank. */
  add(hit: H, score: number, query: number): MergedHit<H> | null {
    const key = normalizeUrl(hit.url);
    if (!key) return null;
    const existing = this.byKey.get(key);
    if (!existing) {
      const entry: MergedHit<H> = { key, hit, score, seen: this.byKey.size, queries: new Set([query]) };
      this.byKey.set(key, entry);
      return entry;
    }
    existing.queries.add(query);
    if (score > existing.score) {
      existing.score = score;
      existing.hit = {
        ...hit,
        content: hit.content?.trim() ? hit.content : existing.hit.content,
        date: hit.date ?? existing.hit.date,
      };
    }
    return existing;
  }

  get(key: string): MergedHit<H> | undefined {
    return this.byKey.get(key);
  }

  /** Every merged URL, first-seen first. */
  values(): MergedHit<H>[] {
    return [...this.byKey.values()];
  }
}
