import * as fs from 'node:fs';
import * as path from 'node:path';

/** Recorded upstream answers (see test/fixtures/recorded/<provider>/). */
export const recorded = (provider: string, name: string): string =>
  path.resolve(__dirname, '../../fixtures/recorded', provider, `${name}.json`);

/** Awaits a promise expected to reject and returns the reason (so several fields can be asserted). */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection, got a value');
}

/** A recorded answer's parsed body (to use as a one-off failure body). */
export const load = (provider: string, name: string): unknown =>
  JSON.parse(fs.readFileSync(recorded(provider, name), 'utf8'));
