import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DOCX_TYPE } from '@app/extraction';
import { CATEGORIES, type Category } from '@app/providers';
import type { DocumentOverrides, RawPage } from './to-document';

/**
 * A folder of pages (`LOCAL_INDEX_DIR`, or the shipped demo corpus) read recursively: `.html`,
 * `.htm`, `.md`, `.pdf` and `.docx` files. A page's address is the one it declares (canonical link or `og:url` for
 * HTML, a front-matter `url:` for markdown); otherwise `https://local.invalid/<relative path>`:
 * `.invalid` is reserved (RFC 2606), so such an address can never reach a real host if something
 * tries to fetch it, and hits carry the page's text so nothing needs to.
 */
export const PSEUDO_ORIGIN = 'https://local.invalid';

const EXTENSIONS: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.pdf': 'application/pdf',
  '.docx': DOCX_TYPE,
};
// A file larger than this is not a page someone wrote for the index (a PDF or Word file may be larger).
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
const isDocument = (relative: string) => /\.(pdf|docx)$/i.test(relative);
/** Whether a file of this name and size is within what the index reads. */
const withinBound = (name: string, size: number) => size <= (isDocument(name) ? MAX_DOCUMENT_BYTES : MAX_FILE_BYTES);

export interface FolderFile {
  absolute: string;
  /** Path under the folder, with the platform's separators. */
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
  for (const file of await listFiles(dir)) pages.push(await readFolderFile(dir, file, source));
  return pages;
}

/** One file of the folder as a page (see `readFolder`). */
export async function readFolderFile(
  dir: string,
  file: Pick<FolderFile, 'relative'>,
  source = 'folder',
): Promise<RawPage> {
  const absolute = path.join(dir, file.relative);
  if (isDocument(file.relative)) return documentPage(file.relative, await fs.readFile(absolute), source);
  return folderPage(file.relative, await fs.readFile(absolute, 'utf8'), source);
}

/** `readFolderFile` for a worker thread, where waiting on the disk blocks nothing else. */
export function readFolderFileSync(dir: string, file: Pick<FolderFile, 'relative'>, source = 'folder'): RawPage {
  const absolute = path.join(dir, file.relative);
  if (isDocument(file.relative)) return documentPage(file.relative, fsSync.readFileSync(absolute), source);
  return folderPage(file.relative, fsSync.readFileSync(absolute, 'utf8'), source);
}

const pseudoUrlOf = (relative: string) =>
  `${PSEUDO_ORIGIN}/${relative.split(path.sep).map(encodeURIComponent).join('/')}`;

/** A PDF or Word file: its bytes in base64 for the extractor, known by its pseudo URL. */
function documentPage(relative: string, bytes: Buffer, source: string): RawPage {
  const contentType = EXTENSIONS[path.extname(relative).toLowerCase()]!;
  return {
    url: pseudoUrlOf(relative),
    body: bytes.toString('base64'),
    encoding: 'base64',
    contentType,
    source,
    canonical: 'any',
  };
}

function folderPage(relative: string, raw: string, source: string): RawPage {
  const contentType = EXTENSIONS[path.extname(relative).toLowerCase()];
  const pseudoUrl = pseudoUrlOf(relative);
  if (contentType === 'text/markdown') {
    const { fields, body } = frontMatter(raw);
    return {
      url: fields.url ?? pseudoUrl,
      body,
      contentType,
      source,
      overrides: overridesFrom(fields),
      canonical: 'any',
    };
  }
  return { url: pseudoUrl, body: raw, contentType, source, canonical: 'any' };
}

/**
 * The longest the walk holds the event loop between two yields (ms): requests served meanwhile
 * (a boot's catch-up over a million files runs beside them) wait at most about this long per turn.
 */
const LIST_SLICE_MS = 1;

const skipped = (name: string) => name.startsWith('.') || name === 'node_modules';

type EntryKind = 'file' | 'directory' | 'other';
const kindOf = (entry: fsSync.Dirent | fsSync.Stats): EntryKind =>
  entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';

/**
 * Walks the page files under `root`, each folder's entries in name order, giving each file to
 * `visit`. Synchronous calls in slices, yielding to the event loop between them: a promise per
 * stat costs several times the stat itself, and a folder of a million pages is walked at boot.
 * Symbolic links are neither files nor folders here: a link loop cannot trap the walk.
 */
function walker(root: string, visit: (file: FolderFile) => void) {
  let sliceStart = performance.now();
  const walk = async (folder: string): Promise<void> => {
    let entries: fsSync.Dirent[];
    try {
      entries = fsSync.readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // gone meanwhile, or unreadable
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) await consider(path.join(folder, entry.name), entry.name, kindOf(entry));
  };
  const consider = async (absolute: string, name: string, kind: EntryKind): Promise<void> => {
    if (skipped(name)) return;
    if (kind === 'directory') return walk(absolute);
    if (kind !== 'file' || !EXTENSIONS[path.extname(name).toLowerCase()]) return;
    if (performance.now() - sliceStart >= LIST_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    let stat: fsSync.Stats;
    try {
      stat = fsSync.statSync(absolute);
    } catch {
      return; // gone meanwhile
    }
    if (withinBound(name, stat.size))
      visit({ absolute, relative: path.relative(root, absolute), size: stat.size, mtimeMs: stat.mtimeMs });
  };
  return { walk, consider };
}

/**
 * The folder's page files with their size and modification time, in path order; with `only`,
 * just those relative paths (a named folder among them is listed whole).
 */
export async function listFiles(dir: string, only?: string[]): Promise<FolderFile[]> {
  const root = path.resolve(dir);
  const files = new Map<string, FolderFile>();
  const { walk, consider } = walker(root, (file) => files.set(file.relative, file));
  if (only) {
    for (const relative of new Set(only)) {
      const absolute = path.resolve(root, relative);
      // Only paths inside the folder, none through a hidden part.
      if (absolute !== root && !absolute.startsWith(root + path.sep)) continue;
      if (path.relative(root, absolute).split(path.sep).some(skipped)) continue;
      const stat = await fs.lstat(absolute).catch(() => null);
      if (stat) await consider(absolute, path.basename(absolute), kindOf(stat));
    }
  } else await walk(root);
  return [...files.values()].sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** Visits every page file of the folder (see `listFiles`) without holding the listing. */
export async function walkFiles(dir: string, visit: (file: FolderFile) => void): Promise<void> {
  const root = path.resolve(dir);
  await walker(root, visit).walk(root);
}

/** The page file at `relative` as the listing would give it, or null where the listing would not (gone, hidden, too large, a link). */
export function listedFile(dir: string, relative: string): Omit<FolderFile, 'absolute'> | null {
  const root = path.resolve(dir);
  const absolute = path.resolve(root, relative);
  if (!absolute.startsWith(root + path.sep)) return null;
  if (path.relative(root, absolute).split(path.sep).some(skipped)) return null;
  if (!EXTENSIONS[path.extname(absolute).toLowerCase()]) return null;
  let stat: fsSync.Stats;
  try {
    stat = fsSync.lstatSync(absolute);
  } catch {
    return null;
  }
  if (!stat.isFile() || !withinBound(relative, stat.size)) return null;
  return { relative: path.relative(root, absolute), size: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * Watches every folder under `dir` (one non-recursive watch each, so a flat folder of 100,000
 * pages costs one watch) and reports the relative paths that changed, gathered over `settleMs`
 * so a burst of writes is read once. A new sub-folder is watched as it appears. When the system
 * cannot watch (no inotify left, an unsupported file system), it reports `all` every
 * `pollMs` instead, and the caller compares the whole listing.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, fsSync.FSWatcher>();
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;
  private poller?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly onChange: (changed: string[] | 'all') => void,
    private readonly settleMs = 200,
    private readonly pollMs = 5_000,
  ) {}

  /**
   * Watches every folder of the tree; resolves once each folder there now is watched. The folders
   * are listed off the main thread (a tree of a million pages took 1.4 s to list in one go), so a
   * large tree does not hold up what the process serves meanwhile.
   */
  async start(): Promise<void> {
    try {
      await this.watchTree(path.resolve(this.dir));
    } catch {
      this.poll();
    }
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
  }

  private poll(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.poller || this.closed) return;
    this.poller = setInterval(() => this.onChange('all'), this.pollMs);
    this.poller.unref();
  }

  private async watchTree(folder: string): Promise<void> {
    if (this.closed || this.watchers.has(folder)) return;
    const watcher = fsSync.watch(folder, { persistent: false }, (_event, name) => {
      const root = path.resolve(this.dir);
      const changed = name
        ? path.relative(root, path.join(folder, name.toString()))
        : path.relative(root, folder) || '.';
      this.note(changed);
      if (name) {
        const absolute = path.join(folder, name.toString());
        fsSync.lstat(absolute, (err, stat) => {
          if (!err && stat.isDirectory() && !skipped(name.toString()))
            this.watchTree(absolute).catch(() => this.poll());
        });
      }
    });
    watcher.on('error', () => {
      watcher.close();
      this.watchers.delete(folder);
      if (folder === path.resolve(this.dir)) this.poll();
    });
    this.watchers.set(folder, watcher);
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && !skipped(entry.name))
        // A sub-folder removed since the listing is not watched (its parent's watch reports it gone).
        await this.watchTree(path.join(folder, entry.name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
    }
  }

  private note(relative: string): void {
    this.pending.add(relative);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const changed = [...this.pending];
      this.pending = new Set();
      if (!this.closed) this.onChange(changed.includes('.') ? 'all' : changed);
    }, this.settleMs);
    this.timer.unref();
  }
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
  if ((CATEGORIES as readonly string[]).includes(fields.category ?? ''))
    overrides.category = fields.category as Category;
  const language = fields.language ?? fields.lang;
  if (language) overrides.language = language;
  return overrides;
}
