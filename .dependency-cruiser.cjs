// Import rules for apps/ and libs/, checked by `npm run lint:imports` (and by `npm test`).
// Each library is used through its index (libs/<name>/src/index.ts, what `@app/<name>` resolves to);
// nothing imports another library's insides, libraries never import apps, and there are no cycles.
// Paths are matched relative to the directory depcruise runs in (the repository root).
'use strict';

/** Files that may reach into a library's insides: specs, the test suites, the benchmarks. */
const TESTS = ['\\.spec\\.ts$', '^test/', '^bench/'];
/** A library's public entry: the only file of libs/<name>/src another library or an app may import. */
const LIB_INDEX = '^libs/[^/]+/src/index\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycle. Modules in a cycle load half-initialised (an import is undefined at module load, ' +
        'a Nest provider token resolves to undefined). Break it by moving the shared piece into its own file, ' +
        'or by importing the sibling file inside the library instead of its index. Type-only imports count too.',
      from: { path: '^(apps|libs)/' },
      to: { circular: true },
    },
    {
      name: 'lib-to-lib-internals',
      severity: 'error',
      comment:
        'A library imports a file inside another library. Import it from `@app/<lib>` (libs/<lib>/src/index.ts) ' +
        'and export what is needed from that index; inside one library use relative imports. Specs are exempt.',
      from: { path: '^libs/([^/]+)/src/', pathNot: TESTS },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', LIB_INDEX] },
    },
    {
      name: 'app-to-lib-internals',
      severity: 'error',
      comment:
        'An app imports a file inside a library. Import it from `@app/<lib>` (libs/<lib>/src/index.ts) ' +
        'and export what is needed from that index. Specs are exempt.',
      from: { path: '^apps/', pathNot: TESTS },
      to: { path: '^libs/[^/]+/src/', pathNot: LIB_INDEX },
    },
    {
      name: 'lib-to-app',
      severity: 'error',
      comment:
        'A library imports an app. Libraries are the layer apps are built from; move the code the library needs ' +
        'into a library (specs inside libraries are held to this too).',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment:
        'The TypeScript client (libs/client) is published on its own: it imports only its own files and ' +
        "Node's built-ins, never another library or an app (its types come from the generated openapi.ts).",
      from: { path: '^libs/client/' },
      to: { path: '^(apps|libs)/', pathNot: '^libs/client/' },
    },
  ],
  options: {
    // Only our own TypeScript: node_modules is neither followed nor reported, the console's static files are skipped.
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(apps|libs)/',
    exclude: { path: '^apps/gateway/console/' },
    // `@app/<name>` resolves through tsconfig.json's paths to libs/<name>/src/index.ts.
    tsConfig: { fileName: 'tsconfig.json' },
    // Count imports TypeScript erases (`import type`, type-only usage) so type-level cycles show too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
