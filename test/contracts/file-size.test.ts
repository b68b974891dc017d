import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * No file of libs/language over 300 lines, specs included: a file that long holds several jobs,
 * and is split into modules that each hold one (see research/question/ and research/), a spec
 * into one file per module or per behaviour.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const LIMIT = 300;
const DIRS = ['libs/language/src'];

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe(`no file over ${LIMIT} lines`, () => {
  it.each(DIRS)('%s', (dir) => {
    const files = sourcesUnder(dir);
    expect(files.length).toBeGreaterThan(0);
    const over = files
      .map((file) => ({
        file,
        lines: fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length,
      }))
      .filter((f) => f.lines > LIMIT)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });
});
