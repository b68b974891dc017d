import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContractSide } from '@app/contracts';

/** libs/contracts/fixtures: golden JSON both sides test against. Test-only: fixtures are not part of the build. */
export const FIXTURES_DIR = path.resolve(__dirname, '../../libs/contracts/fixtures');

export const fixturePath = (subject: string, side: ContractSide): string =>
  path.join(FIXTURES_DIR, `${subject}.${side}.json`);

export function loadFixture<T = unknown>(subject: string, side: ContractSide): T {
  return JSON.parse(fs.readFileSync(fixturePath(subject, side), 'utf8')) as T;
}

/** The JSON "shape" of a value: same keys, same JSON types; values themselves (pids, times) may differ. */
export function jsonShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonShape);
  if (value === null) return 'null';
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, jsonShape(v)]),
    );
  }
  return typeof value;
}
