/**
 * Loads an ES module from CommonJS. TypeScript compiles `import()` to `require()` under
 * `module: commonjs`, and `require` cannot load `.mjs` (PDF.js ships only ES modules); a function
 * made at run time keeps the real `import()`.
 */
const load = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  return load(specifier) as Promise<T>;
}
