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
    const cells = t.startsWith('|')
      ? t
          .split('|')
          .map((c) => c.trim())
          .filter(Boolean)
      : null;
    const startsWithLink = cells ? cells[0]!.startsWith('[') : /^(?:[-*•]|\d+[.)])\s+\[/.test(t);
    if (!startsWithLink) continue;
    const description = cells
      ? cells.slice(1).join(' · ').replace(LINK, '$1')
      : t
          .replace(/^(?:[-*•]|\d+[.)])\s+/, '')
          .replace(first[0], '')
          .replace(/^[\s:–—-]+/, '')
          .replace(LINK, '$1');
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

/** Words a page's title adds to its site's name: what the page is, not what the entity is called. */
const PAGE_WORDS =
  /^(?:about(?:\s+(?:us|me))?|home(?:\s*page)?|welcome(?:\s+to)?|contact(?:\s+us)?|our\s+(?:story|team|company|history|mission)|who\s+we\s+are|team|leadership|careers?|jobs|news(?:room)?|press|blog|company|overview|official\s+(?:site|website)|index)\b[\s:,–—-]*/i;
/** Characters of a title read for a name. */
const MAX_TITLE_CHARS = 300;
const SITE_SUFFIX = / ?(?:[-–—|·•»:] ?)?(?:official\s+(?:site|website)|homepage|home\s*page|website)$/i;

/**
 * The entity a page stands for, named from its title as a person would: the part of the title that
 * is a name, without the page's own words ("About Acme Robotics" -> "Acme Robotics"; "Home |
 * Kestrel & Loaf" -> "Kestrel & Loaf"; "Welcome to Ledgerlark" -> "Ledgerlark"; "Acme Robotics —
 * Careers" -> "Acme Robotics"). The title itself when nothing is left.
 */
export function entityNameOf(title: string): string {
  // A page's title is the page's to write: only its head can be a name, and the patterns below
  // then never see a long run to backtrack over.
  const head = title.slice(0, MAX_TITLE_CHARS).replace(/\s+/g, ' ');
  const parts = head
    .split(/ [|:–—·•»-] |: /)
    .map((part) => {
      let name = part.trim();
      for (let previous = ''; previous !== name;) {
        previous = name;
        name = name.replace(PAGE_WORDS, '').replace(SITE_SUFFIX, '').trim();
      }
      return name;
    })
    .filter((part) => /\p{L}/u.test(part));
  return parts[0] ?? head.trim();
}
