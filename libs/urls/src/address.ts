import { MAX_URL_CHARS } from './robots';
/**
 * Addresses the local index fetches and stores: one fetchable normal form per page, so a crawl
 * fetches a page once and a re-crawl replaces (not duplicates) its document. Page identity across
 * the system (scheme, `www.` and trailing slash folded) is `normalizeUrl` in ./url-key.
 */

/**
 * Parameters dropped from an address that is fetched: only those no server reads. A subset of
 * `TRACKING_PARAMS` (identity), which also drops `ref`, `si`, `spm`, `yclid` and `_gl`.
 */
const CLICK_PARAMS = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_hsenc|_hsmi|igshid|ref_src)$/i;

/** Absolute http(s) URL without fragment, tracking parameters or default port; other parameters sorted. */
export function absoluteUrl(raw: string, base?: string): string | null {
  // Longer addresses are dropped wherever they come from (a page's links, a sitemap, a redirect).
  if (raw.length > MAX_URL_CHARS || (base !== undefined && base.length > MAX_URL_CHARS)) return null;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  const kept = [...url.searchParams].filter(([name]) => !CLICK_PARAMS.test(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = kept.length ? new URLSearchParams(kept).toString() : '';
  const href = url.toString();
  return href.length > MAX_URL_CHARS ? null : href;
}

/** Lower-case host name without port, `www.` kept: what the local index's domain filters compare against. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return '';
  }
}

/** A filter entry as users write it (`Example.com`, `https://example.com/x`, `.example.com`) -> `example.com`. */
export function normalizeDomain(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  const host = /^[a-z][a-z0-9+.-]*:\/\//.test(trimmed) ? hostOf(trimmed) : trimmed.split('/')[0].split(':')[0];
  return host.replace(/^\.+|\.+$/g, '');
}

/** `domain` is `filter` or one of its subdomains. */
export function domainMatches(domain: string, filter: string): boolean {
  return filter.length > 0 && (domain === filter || domain.endsWith(`.${filter}`));
}

/**
 * The crawler's notion of one site: same host and port (loopback fixture sites differ only by
 * port), `www.` folded into the apex, http and https alike (sites upgrade with a redirect).
 * Subdomains are other sites: give them their own seed.
 */
export function siteKey(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname.toLowerCase().replace(/^www\./, '')}:${parsed.port}`;
  } catch {
    return null;
  }
}

/**
 * A `PUBLIC_ORIGIN=FETCH_URL` seed's page address: a URL under the mirror's origin (`mirror`, the
 * fetch URL) as the public site's, path and query kept; any other URL unchanged.
 */
export function mirroredUrl(url: string, mirror: string, publicOrigin: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== new URL(mirror).origin) return url;
    return absoluteUrl(`${parsed.pathname}${parsed.search}`, publicOrigin) ?? url;
  } catch {
    return url;
  }
}
