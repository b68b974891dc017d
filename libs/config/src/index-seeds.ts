/**
 * One entry of `LOCAL_INDEX_SEEDS`: a site to crawl, either its URL (`https://example.com/`) or
 * `PUBLIC_ORIGIN=FETCH_URL` (`https://example.com=http://127.0.0.1:8080/`): crawl a mirror
 * (staging, loopback) as the site it stands for. The mapping is the operator's word, so pages
 * fetched under the mirror's origin are recorded under the public origin; a page cannot claim
 * another host by itself (its canonical link counts only on its own host).
 */
export interface IndexSeed {
  /** The entry as written: the index records the seed's pages under it. */
  seed: string;
  /** Where the crawl starts. */
  fetchUrl: string;
  /** The origin the mirror's pages are recorded under (`https://example.com`), or null for a plain seed. */
  publicOrigin: string | null;
}

// Split at the first `=` only when what precedes it is a bare origin: an ordinary seed URL may
// carry `=` in its query string (`https://example.com/list?page=2`).
const BARE_ORIGIN = /^https?:\/\/[^/?#=]+\/?$/i;

const httpUrl = (raw: string): URL | null => {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
};

/** Parses one seed; a bad one throws an Error whose message names it and says what is wrong. */
export function parseIndexSeed(raw: string): IndexSeed {
  const seed = raw.trim();
  const at = seed.indexOf('=');
  const left = at > 0 ? seed.slice(0, at) : '';
  if (BARE_ORIGIN.test(left)) {
    const publicUrl = httpUrl(left);
    if (!publicUrl || publicUrl.username || publicUrl.password) {
      throw new Error(`seed "${seed}": "${left}" before "=" must be a public origin such as https://example.com`);
    }
    const fetchUrl = httpUrl(seed.slice(at + 1).trim());
    if (!fetchUrl) {
      throw new Error(
        `seed "${seed}": after "=" must come the http(s) URL to crawl (PUBLIC_ORIGIN=FETCH_URL, e.g. https://example.com=http://127.0.0.1:8080/)`,
      );
    }
    return { seed, fetchUrl: fetchUrl.toString(), publicOrigin: publicUrl.origin };
  }
  if (!httpUrl(seed)) throw new Error(`seed "${seed}" is neither an http(s) URL nor PUBLIC_ORIGIN=FETCH_URL`);
  return { seed, fetchUrl: seed, publicOrigin: null };
}
