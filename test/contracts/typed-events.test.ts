import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The domain reads its events' data with their types: no `String(…)` of event data and no `as`
 * cast of an event or its data in libs/domain (specs and test helpers aside). A stored event is
 * narrowed by a guard (lifecycle(prefix).is, isEventOf, isResearchEvent), never asserted.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DOMAIN = 'libs/domain/src';

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourcesUnder(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [file] : [];
  });
}

/** A cast of an event, a stored event or its data, or a `String(…)` of a field of one. */
const CAST =
  /\b(?:event|stored|data|detail)\)?\s+as\s+(?:[A-Z{(<]|string\b|number\b|unknown\b)|\bString\((?:data|event|stored|detail)\b|\(\s*(?:event|stored)\.data\s+as\b/;

describe('typed events in libs/domain', () => {
  it('no cast and no String() of event data', () => {
    const files = sourcesUnder(DOMAIN);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (CAST.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the pattern finds the casts it forbids', () => {
    for (const line of [
      'const data = stored.data as Record<string, unknown>;',
      'return evolveResearch(progress, event as ResearchEvent);',
      'run_id: String(data[kind.idKey]),',
      'const page = event.data as CrawlPage;',
    ])
      expect(CAST.test(line)).toBe(true);
    expect(CAST.test('const page = event.data;')).toBe(false);
  });
});
