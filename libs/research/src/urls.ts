/**
 * URL identity for de-duplication, shared by the search service and the research pipeline (the
 * search service's own copy in apps/search is to be switched to this one: libs cannot import apps).
 */
const TRACKING = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|_ga|_gl|ref|ref_src|igshid|spm|si)$/i;

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
  const params = [...url.searchParams.entries()].filter(([key]) => !TRACKING.test(key)).sort(([a], [b]) => a.localeCompare(b));
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
  const d = domain.toLowerCase().replace(/^www\./, '').replace(/^\*\./, '').replace(/\.$/, '');
  return host === d || host.endsWith(`.${d}`);
}
