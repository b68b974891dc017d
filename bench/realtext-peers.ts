/**
 * The search engines `bench:realtext` sets beside the service on the same pages: SQLite FTS5
 * (bm25 over title and text, the question's words joined with OR) and MiniSearch with its defaults.
 */
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import type { Page } from './realtext-data';

export interface Searcher {
  name: string;
  search(question: string): number[];
}

export function fts5(pages: Page[], limit = 10): Searcher & { close(): void } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE pages USING fts5(title, text, tokenize='porter unicode61')`);
  const insert = db.prepare('INSERT INTO pages(rowid, title, text) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const p of pages) insert.run(p.id + 1, p.title, p.text);
  })();
  const query = db.prepare('SELECT rowid FROM pages WHERE pages MATCH ? ORDER BY bm25(pages) LIMIT ?');
  return {
    name: 'fts5',
    search(question) {
      const words = (question.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1);
      if (words.length === 0) return [];
      const match = words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
      return (query.all(match, limit) as Array<{ rowid: number }>).map((r) => r.rowid - 1);
    },
    close: () => db.close(),
  };
}

export function minisearch(pages: Page[]): Searcher {
  const index = new MiniSearch<Page>({ fields: ['title', 'text'] });
  index.addAll(pages);
  return {
    name: 'minisearch',
    search: (question) =>
      index
        .search(question)
        .slice(0, 10)
        .map((r) => r.id as number),
  };
}
