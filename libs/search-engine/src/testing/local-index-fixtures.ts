/**
 * The pages and helpers the LocalIndex specs share: a fixed clock, a page with defaults, a small
 * corpus, an index built from it, and the URLs a search answers.
 */
import type { IndexedDocument } from '../document';
import { LocalIndex } from '../local-index';

export const NOW = new Date('2025-06-15T12:00:00Z');

export const doc = (url: string, fields: Partial<IndexedDocument> & { text: string }): IndexedDocument => ({
  url,
  title: fields.title ?? url,
  description: null,
  date: null,
  category: null,
  language: 'en',
  domain: new URL(url).hostname,
  source: 'test',
  ...fields,
});

export const DOCS: IndexedDocument[] = [
  doc('https://papers.example/abs/sodium', {
    title: 'Layered oxide cathodes for sodium-ion batteries',
    text: 'Sodium-ion batteries are cheaper than lithium. Magnesium doping stops the layered oxide cathode from cracking. Cells keep 92 percent of capacity after 3,000 cycles.',
    category: 'research_paper',
    date: '2024-03-04',
  }),
  doc('https://news.daily.example/science/sodium', {
    title: 'University reports battery breakthrough',
    text: 'Scientists say a new cathode for sodium batteries lasts thousands of cycles. Battery makers are building pilot lines for stationary storage.',
    category: 'news',
    date: '2025-06-13',
  }),
  doc('https://daily.example/opinion/bikes', {
    title: 'Letters on the new bike lanes',
    text: 'Readers write about the protected bike lanes on Quay Road. A shop owner lost his loading bay to the cycle lane.',
    category: 'news',
    date: '2025-05-01',
  }),
  doc('https://www.helio.example/about', {
    title: 'About HelioGrid',
    text: 'HelioGrid makes solar inverters and lithium iron phosphate batteries for homes. The renewable energy company was founded in Freiburg.',
    category: 'company',
  }),
  doc('https://helio.example/de/ueber-uns', {
    title: 'Über HelioGrid',
    text: 'HelioGrid entwickelt Wechselrichter und Batteriespeicher für Solaranlagen. Die Batterien nutzen Lithium-Eisenphosphat.',
    category: 'company',
    language: 'de',
  }),
  doc('https://bakers.example/rye', {
    title: 'Dense rye sourdough',
    text: 'Feed the rye starter twice. Bake at 250 degrees for 15 minutes, then wrap the loaf in a towel.',
    date: '2023-01-10',
    language: null,
  }),
];

export const build = (docs = DOCS) => {
  const index = new LocalIndex({ now: () => NOW });
  for (const d of docs) index.upsert(d);
  return index;
};
export const urls = (index: LocalIndex, query: Parameters<LocalIndex['search']>[0]) =>
  index.search(query).hits.map((hit) => hit.url);
