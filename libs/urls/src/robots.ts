/**
 * robots.txt (RFC 9309) read with bounds, because a site writes it to be read by us: the file
 * is capped before it gets here (512 KiB, as the RFC asks crawlers to read at least), each rule
 * is bounded before it is matched, and matching costs about the length of the path per rule
 * that could apply, never the product of a pattern's length and the path's.
 *
 * A pattern's `*` runs are matched greedily, segment by segment, with `indexOf` from where the
 * previous segment ended (leftmost placement leaves the most room to what follows, so greedy is
 * exact for patterns whose only operators are `*` and a final `$`). Rules are indexed by their
 * literal prefix (the text before the first `*`), so a path is compared only with the rules
 * whose prefix it starts with. robots-parser, used before, matches with a table of every
 * partial match (pattern length x path length per rule): a 512 KiB `Disallow: /*a*a*a...` rule
 * against an 8 KB path was about 10^9 steps a check.
 */

/** The longest URL read from anything a site sends (sitemaps, links, redirects) or a caller gives. */
export const MAX_URL_CHARS = 8 * 1024;

export const ROBOTS_BOUNDS = {
  /** A rule's pattern, in characters (after percent-encoding). */
  ruleChars: 1_024,
  /** `*` wildcards in one rule (a run of them counts once). */
  ruleWildcards: 16,
  /** Rules of the groups that apply to us. */
  rules: 10_000,
  /** `Sitemap:` lines kept. */
  sitemaps: 1_000,
} as const;

interface Rule {
  allow: boolean;
  /** Pattern split at its `*` runs: the first segment is a prefix of the path, the others follow in order. */
  segments: string[];
  /** Ends in `$`: the last segment must end the path. */
  anchored: boolean;
  /** Priority: the longest pattern that matches decides (RFC 9309 2.2.2); allow wins a tie. */
  length: number;
}

export interface RobotsRules {
  /** Whether our user agent may fetch this URL (its path and query); `/robots.txt` always may. */
  isAllowed(url: string): boolean;
  /** Crawl-delay of the group that applies to us, in seconds, or null. */
  crawlDelaySec: number | null;
  /** The file's `Sitemap:` URLs (absolute http(s) addresses only, at most ROBOTS_BOUNDS.sitemaps). */
  sitemaps: string[];
  /** Rules that passed a bound and were cut (Disallow) or dropped (Allow). */
  bounded: number;
}

/** The product token robots.txt groups name: `WebResearchBot/1.0 (+...)` -> `webresearchbot`. */
export function productToken(userAgent: string): string {
  return userAgent.trim().split(/[\s/]/)[0]!.toLowerCase();
}

/** Percent-encodes what a URL path would (non-ASCII, spaces) and upper-cases escapes, so a rule and a path compare alike. */
function normalizeEncoding(path: string): string {
  let encoded = path;
  if (/[^\x21-\x7e]/.test(path)) {
    try {
      encoded = encodeURI(path).replace(/%25([0-9a-fA-F]{2})/g, '%$1');
    } catch {
      encoded = path; // a lone surrogate: compared as written
    }
  }
  return encoded.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/**
 * A rule's pattern within the bounds, or null to drop it. A Disallow past a bound is cut after
 * its last permitted wildcard (and to the length bound) and ends with `*`: it then refuses at
 * least what the site wrote. An Allow past a bound is dropped (it would allow more than written).
 */
function compile(allow: boolean, raw: string): { rule: Rule | null; bounded: boolean } {
  let pattern = normalizeEncoding(raw).replace(/\*+/g, '*');
  let anchored = false;
  if (pattern.endsWith('$')) {
    anchored = true;
    pattern = pattern.slice(0, -1);
  }
  const wildcards = pattern.split('*').length - 1;
  const over = pattern.length > ROBOTS_BOUNDS.ruleChars || wildcards > ROBOTS_BOUNDS.ruleWildcards;
  if (over) {
    if (allow) return { rule: null, bounded: true };
    let cut = pattern.slice(0, ROBOTS_BOUNDS.ruleChars);
    let seen = 0;
    for (let i = 0; i < cut.length; i++) {
      if (cut[i] === '*' && ++seen === ROBOTS_BOUNDS.ruleWildcards) {
        cut = cut.slice(0, i);
        break;
      }
    }
    pattern = `${cut.replace(/\*$/, '')}*`;
    anchored = false;
  }
  return {
    rule: { allow, segments: pattern.split('*'), anchored, length: pattern.length + (anchored ? 1 : 0) },
    bounded: over,
  };
}

function matches(rule: Rule, path: string): boolean {
  const { segments, anchored } = rule;
  const first = segments[0]!;
  if (!path.startsWith(first)) return false;
  if (segments.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = segments.length - 1;
  for (let i = 1; i < last; i++) {
    const found = path.indexOf(segments[i]!, at);
    if (found < 0) return false;
    at = found + segments[i]!.length;
  }
  const tail = segments[last]!;
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, at) >= 0;
}

interface Group {
  agents: string[];
  rules: Array<{ allow: boolean; value: string }>;
  delay: number | null;
}

/** The rules of `robotsTxt` that apply to `userAgent` (its own groups, else `*`'s), within ROBOTS_BOUNDS. */
export function parseRobots(robotsTxt: string, userAgent: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let inAgents = false;
  let at = 0;
  while (at <= robotsTxt.length) {
    let end = robotsTxt.indexOf('\n', at);
    if (end < 0) end = robotsTxt.length;
    const raw = robotsTxt.slice(at, end);
    at = end + 1;
    const hash = raw.indexOf('#');
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !inAgents) groups.push((current = { agents: [], rules: [], delay: null }));
      current.agents.push(value.toLowerCase() === '*' ? '*' : productToken(value));
      inAgents = true;
      continue;
    }
    inAgents = false;
    if (key === 'sitemap') {
      if (sitemaps.length < ROBOTS_BOUNDS.sitemaps && value.length <= MAX_URL_CHARS && /^https?:\/\//i.test(value))
        sitemaps.push(value);
    } else if (!current) {
      continue;
    } else if (key === 'allow' || key === 'disallow') {
      if (value) current.rules.push({ allow: key === 'allow', value });
    } else if (key === 'crawl-delay') {
      const seconds = Number(value);
      if (current.delay === null && Number.isFinite(seconds) && seconds >= 0) current.delay = seconds;
    }
  }
  const token = productToken(userAgent);
  let chosen = groups.filter((group) => group.agents.includes(token));
  if (chosen.length === 0) chosen = groups.filter((group) => group.agents.includes('*'));

  // Rules indexed by the length of their literal prefix, then by that prefix.
  const byPrefix = new Map<number, Map<string, Rule[]>>();
  let count = 0;
  let bounded = 0;
  for (const group of chosen) {
    for (const written of group.rules) {
      if (count >= ROBOTS_BOUNDS.rules) break;
      const { rule, bounded: over } = compile(written.allow, written.value);
      if (over) bounded++;
      if (!rule) continue;
      count++;
      const prefix = rule.segments[0]!;
      let sameLength = byPrefix.get(prefix.length);
      if (!sameLength) byPrefix.set(prefix.length, (sameLength = new Map()));
      const list = sameLength.get(prefix);
      if (list) list.push(rule);
      else sameLength.set(prefix, [rule]);
    }
  }
  const lengths = [...byPrefix.keys()].sort((a, b) => a - b);

  return {
    crawlDelaySec: chosen.find((group) => group.delay !== null)?.delay ?? null,
    sitemaps,
    bounded,
    isAllowed(url: string): boolean {
      if (url.length > MAX_URL_CHARS) return false;
      let path: string;
      try {
        const parsed = new URL(url);
        path = normalizeEncoding(`${parsed.pathname}${parsed.search}`);
      } catch {
        return false;
      }
      if (path === '/robots.txt') return true;
      let best: Rule | null = null;
      for (const length of lengths) {
        if (length > path.length) break;
        const candidates = byPrefix.get(length)!.get(path.slice(0, length));
        if (!candidates) continue;
        for (const rule of candidates) {
          if (best && (rule.length < best.length || (rule.length === best.length && best.allow))) continue;
          if (matches(rule, path)) best = rule;
        }
      }
      return best === null || best.allow;
    },
  };
}

/**
 * parseRobots with the last `max` files kept: a crawl asks about one file once per page, and a
 * parse of a 512 KiB file is the costly part.
 */
export function robotsCache(max = 8): (robotsTxt: string, userAgent: string) => RobotsRules {
  const kept = new Map<string, RobotsRules>();
  return (robotsTxt, userAgent) => {
    const key = `${userAgent}\n${robotsTxt}`;
    let rules = kept.get(key);
    if (rules) kept.delete(key);
    else {
      rules = parseRobots(robotsTxt, userAgent);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, rules);
    return rules;
  };
}
