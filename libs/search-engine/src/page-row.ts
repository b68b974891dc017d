/**
 * How a page's facts become its row in the page table: its day number, primary language, whether it is
 * its site's home page, and its ranking prior. Kept apart from the filters and the ranking that read the
 * table, so the table does not import the code that imports it.
 */

/** A page without a date (day numbers compare as numbers). */
export const NO_DATE = 0;

/** `2025-06-15` -> 20250615 (0 when absent): days compare as numbers. */
export const dayNumber = (date: string | null | undefined) =>
  date && /^\d{4}-\d{2}-\d{2}/.test(date) ? Number(date.slice(0, 10).replace(/-/g, '')) : NO_DATE;

/** `en-GB` -> `en`: a filter for English keeps British and American pages alike. */
export const primaryLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];

/** Names a page about one entity mentions at most before it counts as a listing (prior halves at twice this). */
export const MANY_NAMES = 10;
/** A site's home page over its other pages, all else equal. */
const HOME_BOOST = 1.3;

/** `https://www.kestrel-and-loaf.test/` -> home; `/about` -> not. */
export const isHome = (url: string) => {
  try {
    const { pathname, search } = new URL(url);
    return (pathname === '/' || pathname === '') && !search;
  } catch {
    return false;
  }
};

/** A page's prior, part of each of its postings' impact: a page naming many entities is about none of them; a home page stands for its site. */
export const pagePrior = (names: number, home: boolean): number =>
  (1 / (1 + Math.max(0, names - MANY_NAMES) / MANY_NAMES)) * (home ? HOME_BOOST : 1);
