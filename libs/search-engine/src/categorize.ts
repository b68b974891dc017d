import type { Category } from '@app/providers';

export interface CategoryEvidence {
  url: string;
  title?: string | null;
  /** Main text; only its beginning is read. */
  text?: string | null;
  /** JSON-LD `@type` values in document order: the page's own item first, nested ones (authors, publishers) after. */
  schemaTypes?: readonly string[];
  /** `og:type`, e.g. `article`, `profile`. */
  ogType?: string | null;
  /** The page carries Highwire/Google Scholar `citation_*` meta tags. */
  citationMeta?: boolean;
}

const NEWS_TYPES = new Set([
  'newsarticle',
  'reportagenewsarticle',
  'analysisnewsarticle',
  'opinionnewsarticle',
  'backgroundnewsarticle',
  'liveblogposting',
]);
const PAPER_TYPES = new Set(['scholarlyarticle', 'medicalscholarlyarticle', 'thesis']);
const PERSON_TYPES = new Set(['person', 'profilepage']);
const COMPANY_TYPES = new Set([
  'organization',
  'corporation',
  'localbusiness',
  'ngo',
  'onlinestore',
  'onlinebusiness',
  'newsmediaorganization',
]);
// Wrappers around the page's item, not the item itself.
const CONTAINER_TYPES = new Set([
  'webpage',
  'website',
  'collectionpage',
  'aboutpage',
  'itempage',
  'breadcrumblist',
  'listitem',
  'itemlist',
  'searchaction',
  'entrypoint',
  'imageobject',
  'sitenavigationelement',
  'wpheader',
  'wpfooter',
]);

// Titles and paths that name a filing or results release outright.
const FINANCIAL_TITLE =
  /\b(10-k|10-q|20-f|annual report|quarterly (results|report|earnings)|earnings (release|report|call)|financial (results|statements|report)|q[1-4] (fy)?\s?\d{2,4} (results|earnings)|(first|second|third|fourth)[- ]quarter (fiscal )?\d{4} results)\b/i;
const FINANCIAL_PATH =
  /\/(investors?|investor-relations|ir|financials?|earnings|quarterly-results|annual-reports?|sec-filings)(\/|$)|\b(10-?k|10-?q)\b/i;
const FINANCIAL_TERMS =
  /\b(revenue|net income|operating income|ebitda|earnings per share|gross margin|free cash flow|balance sheet)\b/gi;
const FIRST_PERSON = /\b(i|i'm|i've|i'd|my|me)\b/gi;

/**
 * The category of a page, from the strongest evidence down: the page's own JSON-LD type, then
 * citation meta, financial wording, URL shape, and finally its text. Null when nothing speaks.
 */
export function categorize(evidence: CategoryEvidence): Category | null {
  const list = (evidence.schemaTypes ?? []).map((type) => type.toLowerCase().replace(/^.*[/#:]/, ''));
  const types = new Set(list);
  // Only the page's own type counts: the Person who founded an Organization does not make its page a profile.
  const primary = list.find((type) => !CONTAINER_TYPES.has(type));
  const has = (family: Set<string>) => primary !== undefined && family.has(primary);
  const path = pathOf(evidence.url);
  const title = evidence.title ?? '';
  const head = (evidence.text ?? '').slice(0, 4000);

  if (has(PAPER_TYPES) || evidence.citationMeta) return 'research_paper';
  if (has(NEWS_TYPES)) return 'news';
  if (isFinancial(title, path, head, types)) return 'financial_report';
  if (has(PERSON_TYPES) || evidence.ogType === 'profile')
    return isPersonal(evidence.url, path, title, head, types) ? 'personal_site' : 'people';
  if (has(COMPANY_TYPES)) return 'company';

  const host = hostOf(evidence.url);
  if (/(^|\.)arxiv\.org$|(^|\.)doi\.org$/.test(host) || /\/(papers?|publications?|abs|proceedings)\//.test(path))
    return 'research_paper';
  if (/^news\./.test(host) || /\/(news|press|press-releases?|newsroom)\//.test(path)) return 'news';
  if (/\/(team|people|staff|profiles?|authors?)\/[^/]+/.test(path)) return 'people';
  if (isPersonal(evidence.url, path, title, head, types)) return 'personal_site';
  if (/\/(about|about-us|company|products?|solutions|customers)(\/|$)/.test(path)) return 'company';
  if (/^\s*abstract\b/i.test(head) && /\b(et al\.|references|keywords)\b/i.test(head)) return 'research_paper';
  return null;
}

function isFinancial(title: string, path: string, head: string, types: Set<string>): boolean {
  if (types.has('financialreport') || FINANCIAL_TITLE.test(title)) return true;
  const terms = new Set((head.match(FINANCIAL_TERMS) ?? []).map((term) => term.toLowerCase())).size;
  // An investor-relations path alone may be a landing page; with money words it is a report.
  return (FINANCIAL_PATH.test(path) && terms >= 1) || (types.has('report') && terms >= 2) || terms >= 4;
}

/**
 * Someone's own site: a `~user` path, a title that says so, or a home/about page or blog post
 * written in the first person (a team page on a company site speaks of "we" and sits deeper).
 */
function isPersonal(url: string, path: string, title: string, head: string, types: Set<string>): boolean {
  if (/^\/~[^/]+/.test(path) || /\b(personal (site|website|homepage|page)|home ?page of)\b/i.test(title)) return true;
  if (/^(www\.)?news\./.test(hostOf(url))) return false;
  const shallow = path.split('/').filter(Boolean).length <= 1 || types.has('blogposting') || types.has('blog');
  const words = head.split(/\s+/).length;
  const firstPerson = (head.match(FIRST_PERSON) ?? []).length;
  return shallow && words >= 30 && firstPerson / words >= 0.02;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.toLowerCase();
  } catch {
    return '';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
