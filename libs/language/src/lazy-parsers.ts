/**
 * compromise and chrono-node, loaded at their first use rather than with the process: loading them
 * takes some 0.45 s, which a boot (and a process that only searches or fetches) need not pay.
 */
import type { ParsedResult } from 'chrono-node';

type Nlp = typeof import('compromise').default;
type Chrono = typeof import('chrono-node');

let compromise: Nlp | undefined;
let chronoNode: Chrono | undefined;

/** compromise's `nlp(text)`: the text's document, tagged. */
export const nlp = ((...args: Parameters<Nlp>) =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (compromise ??= require('compromise') as Nlp)(...args)) as unknown as Nlp;

/** chrono-node's `parse`: the dates and times written in `text`, read from `reference`. */
export function parseDates(text: string, reference?: Date): ParsedResult[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (chronoNode ??= require('chrono-node') as Chrono).parse(text, reference);
}
