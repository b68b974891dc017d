import { CATEGORIES } from '@app/providers';
import type { IndexedDocument } from './document';
import { dayNumber, isHome, pagePrior, primaryLanguage } from './page-row';

/** The page facts a table row is made from. */
export type PageFacts = Pick<IndexedDocument, 'url' | 'date' | 'category' | 'language' | 'domain'>;

/** The collection statistics BM25 needs: live pages and their average field lengths. */
export interface CollectionBasis {
  documents: number;
  avgTitle: number;
  avgText: number;
}

/** The table's arrays, by name, in the order a snapshot (page-snapshot.ts) holds them. */
export const ARRAYS = [
  'live',
  'prior',
  'titleLen',
  'textLen',
  'day',
  'category',
  'language',
  'domain',
  'home',
  'names',
] as const;

/** What the table holds beside its arrays. */
export interface PageTableState {
  documents: number;
  sumTitle: number;
  sumText: number;
  domains: string[];
  languages: string[];
  languagePages: number[];
  domainsVersion: number;
  homesVersion: number;
}

/**
 * Per-page facts searches need without reading the page: by page id, grown as ids are handed out,
 * with the collection's counts and the dictionaries of domains and languages the ids point into.
 */
export class PageTable {
  live = new Uint8Array(1024);
  prior = new Float32Array(1024);
  titleLen = new Uint32Array(1024);
  textLen = new Uint32Array(1024);
  day = new Int32Array(1024);
  category = new Uint8Array(1024);
  language = new Uint16Array(1024);
  domain = new Uint32Array(1024);
  home = new Uint8Array(1024);
  names = new Uint32Array(1024);

  /** Live pages, and their field lengths summed. */
  documents = 0;
  private sumTitle = 0;
  private sumText = 0;
  readonly domains: string[] = [''];
  private readonly domainIds = new Map<string, number>();
  private readonly languages: string[] = [''];
  readonly languageIds = new Map<string, number>();
  /** Live pages per language id (0: unknown), so a filter every page passes is not applied page by page. */
  readonly languagePages: number[] = [0];
  /** Counts new domains, and home pages coming or going: what is built from them is stale when these move. */
  domainsVersion = 0;
  homesVersion = 0;

  ensure(id: number): void {
    if (id < this.live.length) return;
    let size = this.live.length;
    while (size <= id) size *= 2;
    const grow = <T extends Uint8Array | Float32Array | Uint32Array | Int32Array | Uint16Array>(array: T): T => {
      const next = new (array.constructor as new (n: number) => T)(size);
      next.set(array);
      return next;
    };
    this.live = grow(this.live);
    this.prior = grow(this.prior);
    this.titleLen = grow(this.titleLen);
    this.textLen = grow(this.textLen);
    this.day = grow(this.day);
    this.category = grow(this.category);
    this.language = grow(this.language);
    this.domain = grow(this.domain);
    this.home = grow(this.home);
    this.names = grow(this.names);
  }

  set(id: number, doc: PageFacts, titleLen: number, textLen: number, names: number): void {
    this.ensure(id);
    const home = isHome(doc.url);
    this.live[id] = 1;
    this.titleLen[id] = titleLen;
    this.textLen[id] = textLen;
    this.names[id] = names;
    this.home[id] = home ? 1 : 0;
    this.prior[id] = pagePrior(names, home);
    this.day[id] = dayNumber(doc.date);
    this.category[id] = doc.category ? CATEGORIES.indexOf(doc.category) + 1 : 0;
    this.language[id] = doc.language ? this.languageId(primaryLanguage(doc.language)) : 0;
    this.languagePages[this.language[id]]++;
    this.domain[id] = this.domainId(doc.domain);
    this.documents++;
    this.sumTitle += titleLen;
    this.sumText += textLen;
    if (home) this.homesVersion++;
  }

  kill(id: number): void {
    if (!this.live[id]) return;
    this.live[id] = 0;
    this.languagePages[this.language[id]]--;
    this.documents--;
    this.sumTitle -= this.titleLen[id];
    this.sumText -= this.textLen[id];
    if (this.home[id]) this.homesVersion++;
  }

  /** What a snapshot keeps beside the arrays. */
  state(): PageTableState {
    return {
      documents: this.documents,
      sumTitle: this.sumTitle,
      sumText: this.sumText,
      domains: this.domains,
      languages: this.languages,
      languagePages: this.languagePages,
      domainsVersion: this.domainsVersion,
      homesVersion: this.homesVersion,
    };
  }

  /** Takes a snapshot's arrays and state (an empty table: the index's constructor, before any page). */
  restore(state: PageTableState, arrays: Pick<PageTable, (typeof ARRAYS)[number]>): void {
    for (const name of ARRAYS) (this as Record<(typeof ARRAYS)[number], unknown>)[name] = arrays[name];
    this.documents = state.documents;
    this.sumTitle = state.sumTitle;
    this.sumText = state.sumText;
    this.domains.length = 0;
    this.domainIds.clear();
    // Entry 0 is no domain's (nor language's) id, as in a new table.
    state.domains.forEach((domain, id) => (this.domains.push(domain), id > 0 && this.domainIds.set(domain, id)));
    this.languages.length = 0;
    this.languageIds.clear();
    state.languages.forEach(
      (language, id) => (this.languages.push(language), id > 0 && this.languageIds.set(language, id)),
    );
    this.languagePages.length = 0;
    this.languagePages.push(...state.languagePages);
    this.domainsVersion = state.domainsVersion;
    this.homesVersion = state.homesVersion;
  }

  isLive(id: number): boolean {
    return this.live.length > id && this.live[id] === 1;
  }

  /** Live pages among ids min..max. */
  liveIn(min: number, max: number): number {
    let live = 0;
    const end = Math.min(max, this.live.length - 1);
    for (let id = min; id <= end; id++) live += this.live[id];
    return live;
  }

  basis(): CollectionBasis {
    const n = Math.max(1, this.documents);
    return { documents: this.documents, avgTitle: this.sumTitle / n, avgText: this.sumText / n };
  }

  private domainId(domain: string): number {
    let id = this.domainIds.get(domain);
    if (id === undefined) {
      id = this.domains.push(domain) - 1;
      this.domainIds.set(domain, id);
      this.domainsVersion++;
    }
    return id;
  }

  private languageId(language: string): number {
    let id = this.languageIds.get(language);
    if (id === undefined) {
      id = this.languages.push(language) - 1;
      this.languageIds.set(language, id);
      this.languagePages[id] = 0;
    }
    return id;
  }
}
