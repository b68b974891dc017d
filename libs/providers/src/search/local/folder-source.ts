import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CATEGORIES, type Category } from '../search-provider.port';
import type { DocumentOverrides, RawPage } from './to-document';

/**
 * A folder of pages (`LOCAL_INDEX_DIR`, or the shipped demo corpus) read recursively: `.html`,
 * `.htm` and `.md` files. A page's address is the one it declares (canonical link or `og:url` for
 * HTML, a front-matter `url:` for markdown); otherwise `https://local.invalid/<relative path>`:
 * `.invalid` is reserved (RFC 2606), so such an address can never reach a real host if something
 * tries to fetch it, and hits carry the page's text so nothing needs to.
 */
export const PSEUDO_ORIGIN = 'https://local.invalid';

const EXTENSIONS: Record<string, string> = { '.html': 'text/html', '.htm': 'text/html', '.md': 'text/markdown', '.markdown': 'text/markdown' };
// A file larger than this is not a page someone wrote for the index.
const MAX_FILE_BYTES = 5 * 1024 * 1024;

interface FolderFile {
  absolute: string;
  relative: string;
  size: number;
  mtimeMs: number;
}

/**
 * The folder's pages, in path order, ready for `toIndexedDocument`. Unlike a crawled page, a
 * folder page keeps whatever address it declares, on any host (`canonical: 'any'`): the files are
 * the operator's own, put there to be indexed as the public pages they copy, and a pseudo URL on
 * local.invalid has no host of its own to hold them to.
 */
export async function readFolder(dir: string, source = 'folder'): Promise<RawPage[]> {
  const pages: RawPage[] = [];
  for (const file of await listFiles(dir)) {
    const contentType = EXTENSIONS[path.extname(file.relative).toLowerCase()];
    const raw = await fs.readFile(file.absolute, 'utf8');
    const pseudoUrl = `${PSEUDO_ORIGIN}/${file.relative.split(path.sep).map(encodeURIComponent).join('/')}`;
    if (contentType === 'text/markdown') {
      const { fields, body } = frontMatter(raw);
      pages.push({ url: fields.url ?? pseudoUrl, body, contentType, source, overrides: overridesFrom(fields), canonical: 'any' });
    } else {
      pages.push({ url: pseudoUrl, body: raw, contentType, source, canonical: 'any' });
    }
  }
  return pages;
}

/** Changes when a page is added, removed or edited: the stored index is then rebuilt. */
export async function folderFingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256').update(path.resolve(dir));
  for (const file of await listFiles(dir)) hash.update(`\n${file.relative}\t${file.size}\t${file.mtimeMs}`);
  return hash.digest('hex');
}

async function listFiles(dir: string): Promise<FolderFile[]> {
  const root = path.resolve(dir);
  const files: FolderFile[] = [];
  const walk = async (folder: string): Promise<void> => {
    // Symbolic links are neither files nor folders here: a link loop cannot trap the walk.
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const absolute = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(absolute);
      else if (entry.isFile() && EXTENSIONS[path.extname(entry.name).toLowerCase()]) {
        const stat = await fs.stat(absolute);
        if (stat.size <= MAX_FILE_BYTES) files.push({ absolute, relative: path.relative(root, absolute), size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
  };
  await walk(root);
  return files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** `---`-fenced `key: value` lines at the top of a markdown file (a flat subset of YAML). */
export function frontMatter(raw: string): { fields: Record<string, string>; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(raw);
  if (!match) return { fields: {}, body: raw };
  const fields: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
    if (field) fields[field[1].toLowerCase()] = field[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: raw.slice(match[0].length) };
}

function overridesFrom(fields: Record<string, string>): DocumentOverrides {
  const overrides: DocumentOverrides = {};
  if (fields.title) overrides.title = fields.title;
  if (/^\d{4}-\d{2}-\d{2}/.test(fields.date ?? '')) overrides.date = fields.date.slice(0, 10);
  if ((CATEGORIES as readonly string[]).includes(fields.category ?? '')) overrides.category = fields.category as Category;
  const language = fields.language ?? fields.lang;
  if (language) overrides.language = language;
  return overrides;
}
