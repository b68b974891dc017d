import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as ts from 'typescript';
import { ROOT, type RunningService, startService } from '../support/service-process';

/**
 * The public contract is declared once: a field added to a run kind's view schema, in one edit of
 * one file, is in the OpenAPI document the gateway serves, in the client's types generated from it
 * and in the MCP task tools' output schema, with no other file touched. The edit is made to a
 * temporary copy of the built service: the view's TypeScript source, edited, is compiled over the
 * copy's JavaScript of that one file, and the copy is booted.
 */
const VIEW_SOURCE = path.join(ROOT, 'libs', 'domain', 'src', 'task-run', 'task-run.view.ts');
const ADDED = "    probe_note: Type.Optional(Type.String({ description: 'A field added in one edit' })),\n";

describe('one declaration of a run view (the task run)', () => {
  let copy: string;
  let svc: RunningService;
  let document: { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };

  beforeAll(async () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-one-declaration-'));
    fs.cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    // The one edit: a property in the view's schema, right after its first field.
    const source = fs.readFileSync(VIEW_SOURCE, 'utf8');
    const anchor = '    task_id: Type.String(),\n';
    expect(source).toContain(anchor);
    const edited = source.replace(anchor, anchor + ADDED);
    const { outputText } = ts.transpileModule(edited, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    fs.writeFileSync(path.join(copy, 'dist', 'libs', 'domain', 'src', 'task-run', 'task-run.view.js'), outputText);
    svc = await startService(
      'standalone',
      {},
      { main: path.join(copy, 'dist', 'apps', 'standalone', 'src', 'main.js') },
    );
    const response = await fetch(`${svc.baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as typeof document;
  }, 90_000);

  afterAll(async () => {
    await svc?.stop();
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  it('is in the OpenAPI document, optional, beside the fields that were there', () => {
    const taskRun = document.components.schemas.TaskRun!;
    expect(taskRun.properties.probe_note).toEqual({ type: 'string', description: 'A field added in one edit' });
    expect(Object.keys(taskRun.properties)).toEqual(expect.arrayContaining(['task_id', 'status', 'output', 'basis']));
    expect((taskRun as { required?: string[] }).required).not.toContain('probe_note');
  });

  it("is in the client's generated types, and nothing else there changed", async () => {
    const generator = path.join(copy, 'dist', 'scripts', 'client-types.js');
    const { stdout } = await promisify(execFile)(process.execPath, [generator, '--print', svc.baseUrl], {
      cwd: copy,
      maxBuffer: 32 * 1024 * 1024,
    });
    const committed = fs.readFileSync(path.join(ROOT, 'libs', 'client', 'src', 'openapi.ts'), 'utf8').split('\n');
    const generated = stdout.split('\n');
    // The generated file is the committed one with the field's two lines (its description, then it) in TaskRun.
    expect(generated.length - committed.length).toBe(2);
    const at = generated.findIndex((line) => line.trim() === 'probe_note?: string;');
    expect(at).toBeGreaterThan(0);
    expect(generated.slice(at - 1, at + 1).map((line) => line.trim())).toEqual([
      '/** @description A field added in one edit */',
      'probe_note?: string;',
    ]);
    expect(generated.filter((_, i) => i < at - 1 || i > at)).toEqual(committed);
    expect(
      generated
        .slice(0, at)
        .reverse()
        .find((line) => /^ {8}\w+: \{$/.test(line))
        ?.trim(),
    ).toBe('TaskRun: {');
  }, 60_000);

  it("is in the MCP task tools' output schema", async () => {
    const client = new Client({ name: 'one-declaration', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${svc.demoKey}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      for (const name of ['task', 'get_task']) {
        const tool = tools.find((t) => t.name === name);
        expect(tool?.outputSchema?.properties).toMatchObject({
          task_id: { type: 'string' },
          probe_note: { type: 'string', description: 'A field added in one edit' },
        });
        expect(tool?.outputSchema?.required).not.toContain('probe_note');
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});
