/** A row of a list-like page: an entity's name, its link, and the row's words. */
export interface ListRow {
  name: string;
  url: string;
  description: string;
}

const LINK = /\[([^\]]+)\]\((\S+?)\)/g;

/**
 * The rows of a list-like page (its markdown): table rows and list items whose first cell or
 * item starts with a link to another page. A page with fewer than `min` such rows is not a list.
 * `next` is the page's "next page" link, followed to the end of the list.
 */
export function listRows(markdown: string, min = 5): { rows: ListRow[]; next: string | null } {
  const rows: ListRow[] = [];
  let next: string | null = null;
  for (const line of markdown.split('\n')) {
    const t = line.trim();
    const links = [...t.matchAll(LINK)];
    if (links.length === 0) continue;
    const first = links[0]!;
    if (/^(?:next|next page|more|older|›|»|→)/i.test(first[1]!.trim())) {
      next = first[2]!;
      continue;
    }
    const cells = t.startsWith('|') ? t.split('|').map((c) => c.trim()).filter(Boolean) : null;
    const startsWithLink = cells ? cells[0]!.startsWith('[') : /^(?:[-*•]|\d+[.)])\s+\[/.test(t);
    if (!startsWithLink) continue;
    const description = cells ? cells.slice(1).join(' · ').replace(LINK, '$1') : t.replace(/^(?:[-*•]|\d+[.)])\s+/, '').replace(first[0], '').replace(/^[\s:–—-]+/, '').replace(LINK, '$1');
    rows.push({ name: first[1]!.trim(), url: first[2]!, description: description.trim() });
  }
  return { rows: rows.length >= min ? rows : [], next };
}

/** A name for comparing name forms: lower case, without legal suffixes and punctuation. */
export const entityKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/\b(gmbh|ag|se|inc|ltd|llc|co|corp|corporation|company|kg|plc|sa|bv)\b\.?/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
