import { BM25_CLASSIC, bm25Idf, bm25Weight, deepStem, foldWord, OBJECTIVE_WORDS, sentences } from '@app/text';
import { detectLanguage, STOPWORDS } from './language';

/**
 * The parts of a page's text that answer an objective, within a character budget: whole
 * sentences (or whole short paragraphs) scored with BM25 over the document's own sentences
 * (idf within the document), plus a bonus for objective terms that appear side by side. Picked
 * best-first, returned in document order (adjacent picks from one paragraph joined) so they
 * read as the page wrote them. Without an objective, or when nothing matches: the leading
 * paragraphs. Deterministic: ties go to the earlier sentence.
 */
export function focusExcerpts(text: string, objective: string | undefined, maxChars: number): string[] {
  if (!text || !(maxChars > 0)) return [];
  const units = segment(text);
  if (!units.length) return [];
  const stop = stopwordsFor(text);
  const query = objective ? [...new Set(terms(objective, stop))] : [];
  if (query.length) {
    const picked = relevant(units, query, stop, maxChars);
    if (picked.length) return picked;
  }
  return leading(units, maxChars);
}

interface Unit {
  text: string;
  paragraph: number;
  index: number;
}

function segment(text: string): Unit[] {
  const units: Unit[] = [];
  const paragraphs = text
    .split(/\n+/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  paragraphs.forEach((p, paragraph) => {
    // A paragraph without sentence punctuation (list item, heading, table row) stays one unit.
    for (const s of sentences(p)) units.push({ text: s, paragraph, index: units.length });
  });
  return units;
}

function stopwordsFor(text: string): Set<string> {
  const lang = detectLanguage(text.slice(0, 5000))?.lang;
  const words = [
    ...STOPWORDS.en,
    ...OBJECTIVE_WORDS,
    ...(lang && lang !== 'en' && STOPWORDS[lang] ? STOPWORDS[lang] : []),
  ];
  return new Set(words.map(foldWord));
}

/** Lower-case, accent-folded, stop words out, suffixes trimmed ("prices", "priced", "pricing" -> "pric"). */
function terms(text: string, stop: Set<string>): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? []) {
    const w = foldWord(raw).replace(/['’]s$/, '');
    if (stop.has(w) || (w.length < 2 && !/\d/.test(w))) continue;
    out.push(deepStem(w));
  }
  return out;
}

function relevant(units: Unit[], query: string[], stop: Set<string>, maxChars: number): string[] {
  const docs = units.map((u) => terms(u.text, stop));
  const n = units.length;
  const avgLen = docs.reduce((a, d) => a + d.length, 0) / n || 1;
  const idf = new Map<string, number>();
  for (const q of query) {
    const df = docs.reduce((a, d) => a + (d.includes(q) ? 1 : 0), 0);
    idf.set(q, bm25Idf(n, df));
  }
  const scores = docs.map((d, i) => {
    if (!d.length) return 0;
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    let matched = 0;
    for (const q of query) {
      const f = tf.get(q);
      if (!f) continue;
      matched++;
      score += idf.get(q)! * bm25Weight(f, d.length, avgLen, BM25_CLASSIC);
    }
    if (!matched) return 0;
    // Objective terms side by side ("return policy") are a phrase match.
    for (let j = 0; j + 1 < d.length; j++) {
      const a = query.indexOf(d[j]);
      if (a >= 0 && query[a + 1] === d[j + 1]) score += 0.5 * (idf.get(d[j])! + idf.get(d[j + 1])!);
    }
    // Fragments ("Pricing", a lone heading) match densely but say little.
    return score * Math.min(1, units[i].text.length / 60);
  });

  const best = Math.max(...scores);
  if (!(best > 0)) return [];
  const order = units
    .map((u) => u.index)
    .filter((i) => scores[i] >= best * 0.1)
    .sort((a, b) => scores[b] - scores[a] || a - b);
  const chosen = new Set<number>();
  let used = 0;
  for (const i of order) {
    const cost = units[i].text.length + (chosen.size ? 1 : 0);
    if (used + cost > maxChars) continue;
    chosen.add(i);
    used += cost;
  }
  if (!chosen.size) {
    // The best sentence alone exceeds the budget: its beginning, cut at a word.
    return [cut(units[order[0]].text, maxChars)];
  }
  return join(units.filter((u) => chosen.has(u.index)));
}

/** Consecutive picks from the same paragraph read as one excerpt. */
function join(picked: Unit[]): string[] {
  const out: string[] = [];
  let prev: Unit | null = null;
  for (const u of picked) {
    if (prev && prev.paragraph === u.paragraph && prev.index + 1 === u.index) out[out.length - 1] += ` ${u.text}`;
    else out.push(u.text);
    prev = u;
  }
  return out;
}

/** Whole leading paragraphs; a first paragraph longer than the budget gives its leading sentences. */
function leading(units: Unit[], maxChars: number): string[] {
  const paragraphs: Unit[][] = [];
  for (const u of units) {
    const last = paragraphs[paragraphs.length - 1];
    if (last && last[0].paragraph === u.paragraph) last.push(u);
    else paragraphs.push([u]);
  }
  const out: string[] = [];
  let used = 0;
  for (const para of paragraphs) {
    const text = para.map((u) => u.text).join(' ');
    const cost = text.length + (out.length ? 1 : 0);
    if (used + cost <= maxChars) {
      out.push(text);
      used += cost;
      continue;
    }
    if (out.length) break;
    let partial = '';
    for (const u of para) {
      const next = partial ? `${partial} ${u.text}` : u.text;
      if (next.length > maxChars) break;
      partial = next;
    }
    return [partial || cut(para[0].text, maxChars)];
  }
  return out;
}

function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, Math.max(0, max - 1));
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
