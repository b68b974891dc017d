// The import check (.dependency-cruiser.cjs, run by `npm test`): on a small tree made for it, each
// rule reports the import that breaks it and nothing else; on the repository, nothing is reported.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = path.join(root, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}
interface Report {
  summary: { violations: Violation[]; error: number };
}

/** Runs the check in `cwd`, as `npm test` does (its exit status and printed report) or for its JSON report. */
const depcruiseIn = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [depcruise, 'apps', 'libs', '--config', config, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });

function check(cwd: string): Report {
  const run = depcruiseIn(cwd, '--output-type', 'json');
  if (!run.stdout) throw new Error(`depcruise printed nothing (status ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

/** Each violation as `rule: from -> to`, sorted. */
const lines = (report: Report) =>
  [...new Set(report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`))].sort();

const FIXTURE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'commonjs',
      baseUrl: './',
      paths: Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e'].flatMap((lib) => [
          [`@app/${lib}`, [`libs/${lib}/src`]],
          [`@app/${lib}/*`, [`libs/${lib}/src/*`]],
        ]),
      ),
    },
  }),
  // a: a library with an inside (inner.ts) behind its index.
  'libs/a/src/index.ts': "export { inner } from './inner';\n",
  'libs/a/src/inner.ts': 'export const inner = 1;\n',
  // b: reaches into a's inside through the alias and by a relative path; its own index through the alias is fine.
  'libs/b/src/index.ts':
    "import { inner } from '@app/a/inner';\nimport { inner as again } from '../../a/src/inner';\nexport const b = inner + again;\n",
  'libs/b/src/fine.ts':
    "import { inner } from '@app/a';\nimport { b } from './index';\nexport const fine = inner + b;\n",
  // A spec may reach into another library's insides, but not import an app.
  'libs/b/src/b.spec.ts':
    "import { inner } from '@app/a/inner';\nimport { app } from '../../../apps/x/src/app';\nexport const spec = inner + app;\n",
  // c: a library importing an app.
  'libs/c/src/index.ts': "import { app } from '../../../apps/x/src/app';\nexport const c = app;\n",
  // d: a two-file cycle at run time; e: a cycle of type-only imports.
  'libs/d/src/index.ts': "export { one } from './one';\n",
  'libs/d/src/one.ts': "import { two } from './two';\nexport const one = () => two();\n",
  'libs/d/src/two.ts': "import { one } from './one';\nexport const two = (): number => (one ? 2 : 0);\n",
  'libs/e/src/index.ts': "export type { First } from './first';\n",
  'libs/e/src/first.ts': "import type { Second } from './second';\nexport interface First { second?: Second }\n",
  'libs/e/src/second.ts': "import type { First } from './first';\nexport interface Second { first?: First }\n",
  // x: an app reaching into a library's inside; y: an app importing another app (allowed) and a library's index.
  'apps/x/src/app.ts': 'export const app = 1;\n',
  'apps/x/src/main.ts':
    "import { inner } from '@app/a/inner';\nimport { app } from './app';\nexport const main = inner + app;\n",
  'apps/y/src/main.ts':
    "import { app } from '../../x/src/app';\nimport { inner } from '@app/a';\nimport { c } from '@app/c';\nexport const y = app + inner + c;\n",
};

describe('the import check', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-check-'));
    for (const [file, text] of Object.entries(FIXTURE)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('fails the way npm test runs it, printing each broken rule', () => {
    const run = depcruiseIn(dir);
    expect(run.status).toBe(6);
    for (const rule of ['no-circular', 'lib-to-lib-internals', 'app-to-lib-internals', 'lib-to-app'])
      expect(run.stdout).toContain(`error ${rule}:`);
  });

  it('reports each broken rule on a tree made to break them, and nothing else', () => {
    const report = check(dir);
    expect(report.summary.violations.every((v) => v.rule.severity === 'error')).toBe(true);
    const found = lines(report);
    expect(found.filter((l) => !l.startsWith('no-circular'))).toEqual([
      'app-to-lib-internals: apps/x/src/main.ts -> libs/a/src/inner.ts',
      'lib-to-app: libs/b/src/b.spec.ts -> apps/x/src/app.ts',
      'lib-to-app: libs/c/src/index.ts -> apps/x/src/app.ts',
      'lib-to-lib-internals: libs/b/src/index.ts -> libs/a/src/inner.ts',
    ]);
    // Both cycles, the one of type-only imports too; nothing else (b/fine.ts <-> b/index.ts is no cycle: index does not import fine).
    const cycles = report.summary.violations.filter((v) => v.rule.name === 'no-circular');
    const inCycles = new Set(cycles.flatMap((v) => [v.from, v.to]));
    expect([...inCycles].sort()).toEqual([
      'libs/d/src/one.ts',
      'libs/d/src/two.ts',
      'libs/e/src/first.ts',
      'libs/e/src/second.ts',
    ]);
  });

  it('reports nothing on the repository', () => {
    const report = check(root);
    expect(lines(report)).toEqual([]);
    expect(report.summary.error).toBe(0);
  });
});
