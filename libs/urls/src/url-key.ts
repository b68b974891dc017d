/**
 * URL identity: the one key that says two addresses are the same page (search de-duplication, the
 * research pipeline, findall candidates, monitors). Not an address to fetch: see `absoluteUrl`.
 */

/**
 * Parameters that only say where a click came from, for identity: the same page with or without
 * them. Broader than `CLICK_PARAMS` (which changes the address actually fetched): `ref`, `si` and
 * `spm` are sometimes read by a server, so they are dropped from keys but not from fetches.
 */
const TRACKING_PARAMS =
  /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|ref|ref_src|igshid|spm|si)$/i;

/**
 * Scheme-agnostic, `www.`-less, lower-case host, no default port, no trailing slash, no fragment,
 * no tracking parameters, sorted query. Unparseable input comes back trimmed (still a usable key).
 */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.trim();
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port && !['80', '443'].includes(url.port) ? `:${url.port}` : '';
  const params = [...url.searchParams.entries()]
    .filter(([key]) => !TRACKING_PARAMS.test(key))
    .sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${host}${port}${path}${query}`;
}

/** The host without `www.`, lower case: what domain filters and the `domain` field use. */
export function domainOf(raw: string): string {
  try {
    return new URL(raw).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** True when `host` is `domain` or one of its subdomains. */
export function onDomain(host: string, domain: string): boolean {
  const d = domain
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/^\*\./, '')
    .replace(/\.$/, '');
  return host === d || host.endsWith(`.${d}`);
}
