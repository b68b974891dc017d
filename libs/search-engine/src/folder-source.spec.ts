import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractDocument } from '@app/extraction';
import { FolderWatcher, frontMatter, listFiles, readFolder } from './folder-source';
import { toIndexedDocument } from './to-document';

const HTML_WITH_CANONICAL = `<!doctype html><html lang="en"><head><title>Tern event store</title>
<link rel="canonical" href="https://tern.dev.example/"><script type="application/ld+json">{"@type":"SoftwareSourceCode","name":"Tern"}</script></head>
<body><main><h1>Tern</h1><p>Tern is an embeddable event store that keeps append-only streams in one file, with optimistic concurrency on every append.</p></main></body></html>`;
const HTML_WITHOUT_CANONICAL = `<!doctype html><html lang="en"><head><title>Notes</title></head>
<body><main><h1>Meeting notes</h1><p>The team agreed to rotate the webhook secret every quarter and to keep the overlap at one day.</p></main></body></html>`;
const MARKDOWN = `---
url: https://docs.webresearch.example/monitors
title: "Monitors"
date: 2025-05-12
category: news
language: en-GB
---
# Monitors

A monitor runs a tracked query on a schedule and reports what changed since its previous run.
`;

describe('folder source', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folder-source-'));
    await fs.mkdir(path.join(dir, 'deep', 'er'), { recursive: true });
    await fs.mkdir(path.join(dir, '.git'));
    await fs.writeFile(path.join(dir, 'tern.html'), HTML_WITH_CANONICAL);
    await fs.writeFile(path.join(dir, 'deep', 'er', 'meeting notes.htm'), HTML_WITHOUT_CANONICAL);
    await fs.writeFile(path.join(dir, 'deep', 'monitors.md'), MARKDOWN);
    await fs.writeFile(
      path.join(dir, 'deep', 'plain.md'),
      '# Plain\n\nA markdown page without front matter about cardamom buns.\n',
    );
    await fs.writeFile(path.join(dir, 'image.png'), 'not a page');
    await fs.writeFile(path.join(dir, '.git', 'HEAD.md'), '# hidden');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const documents = async () => {
    const docs = await Promise.all((await readFolder(dir)).map((page) => toIndexedDocument(page, extractDocument)));
    return new Map(docs.map((doc) => [doc!.url, doc!]));
  };

  it('reads .html, .htm and .md files recursively, skipping hidden folders and other files', async () => {
    const pages = await readFolder(dir);
    expect(pages.map((page) => page.contentType).sort()).toEqual([
      'text/html',
      'text/html',
      'text/markdown',
      'text/markdown',
    ]);
  });

  it('takes an HTML page address from its canonical link', async () => {
    const doc = (await documents()).get('https://tern.dev.example/');
    expect(doc).toMatchObject({ domain: 'tern.dev.example', title: 'Tern event store', source: 'folder' });
    expect(doc!.text).toContain('embeddable event store');
  });

  it('gives a page without a declared address a pseudo URL on local.invalid from its relative path', async () => {
    const docs = await documents();
    expect(docs.has('https://local.invalid/deep/er/meeting%20notes.htm')).toBe(true);
    expect(docs.get('https://local.invalid/deep/plain.md')?.text).toContain('cardamom buns');
  });

  it('lets markdown front matter set url, title, date, category and language', async () => {
    expect((await documents()).get('https://docs.webresearch.example/monitors')).toMatchObject({
      title: 'Monitors',
      date: '2025-05-12',
      category: 'news',
      language: 'en-gb',
      domain: 'docs.webresearch.example',
    });
  });

  it('front matter is only a leading --- block of key: value lines', () => {
    expect(frontMatter('---\nurl: https://x.example/\n---\nbody')).toEqual({
      fields: { url: 'https://x.example/' },
      body: 'body',
    });
    expect(frontMatter('text\n---\nurl: x\n---\n').fields).toEqual({});
  });

  it('lists page files with size and modification time, or only the paths asked for (a folder whole)', async () => {
    const all = await listFiles(dir);
    expect(all.every((f) => f.size > 0 && f.mtimeMs > 0)).toBe(true);
    const some = await listFiles(dir, [all[0].relative, 'missing.html', '../outside.html', '.hidden/x.html']);
    expect(some.map((f) => f.relative)).toEqual([all[0].relative]);
    const nested = all.find((f) => f.relative.includes(path.sep));
    if (!nested) throw new Error('the fixture folder has a sub-folder');
    const folder = nested.relative.split(path.sep)[0];
    expect((await listFiles(dir, [folder])).map((f) => f.relative)).toEqual(
      all.filter((f) => f.relative.startsWith(folder + path.sep)).map((f) => f.relative),
    );
  });

  it('the watcher reports a changed, an added and a deleted file by path, and watches a new sub-folder', async () => {
    const seen: Array<string[] | 'all'> = [];
    const watcher = new FolderWatcher(dir, (changed) => seen.push(changed), 50);
    // Resolves once every folder of the tree is watched, the deepest included.
    await watcher.start();
    try {
      const until = async (what: string) => {
        const deadline = Date.now() + 5000;
        while (!seen.some((c) => c === 'all' || c.includes(what))) {
          if (Date.now() > deadline) throw new Error(`no change reported for ${what}: ${JSON.stringify(seen)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await fs.writeFile(path.join(dir, 'fresh.md'), '# Fresh');
      await until('fresh.md');
      await fs.writeFile(path.join(dir, 'deep', 'er', 'agenda.md'), '# Agenda');
      await until(path.join('deep', 'er', 'agenda.md'));
      await fs.mkdir(path.join(dir, 'later'));
      await until('later');
      await new Promise((r) => setTimeout(r, 100));
      await fs.writeFile(path.join(dir, 'later', 'deep.md'), '# Deep');
      await until(path.join('later', 'deep.md'));
      await fs.rm(path.join(dir, 'fresh.md'));
      seen.length = 0;
      await until('fresh.md');
    } finally {
      watcher.close();
    }
  });
});
