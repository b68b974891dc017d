import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractDocument } from '@app/extraction';
import { folderFingerprint, frontMatter, readFolder } from './folder-source';
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
    await fs.writeFile(path.join(dir, 'deep', 'plain.md'), '# Plain\n\nA markdown page without front matter about cardamom buns.\n');
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
    expect(pages.map((page) => page.contentType).sort()).toEqual(['text/html', 'text/html', 'text/markdown', 'text/markdown']);
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
    expect(frontMatter('---\nurl: https://x.example/\n---\nbody')).toEqual({ fields: { url: 'https://x.example/' }, body: 'body' });
    expect(frontMatter('text\n---\nurl: x\n---\n').fields).toEqual({});
  });

  it('fingerprint is stable until a page is added or edited', async () => {
    const before = await folderFingerprint(dir);
    expect(await folderFingerprint(dir)).toBe(before);
    await fs.writeFile(path.join(dir, 'new.md'), '# New page');
    const added = await folderFingerprint(dir);
    expect(added).not.toBe(before);
    await fs.writeFile(path.join(dir, 'new.md'), '# New page, longer now');
    expect(await folderFingerprint(dir)).not.toBe(added);
  });
});
