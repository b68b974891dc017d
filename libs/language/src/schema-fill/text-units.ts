/**
 * The units a field's value is read from: each document's sentences and table rows
 * (tab-separated lines), verbatim.
 */
import { sentenceSpans } from '@app/text';
import type { SchemaFillDocument } from './schema-fill.port';

export interface Unit {
  doc: number;
  text: string;
  /** For a table row: its label (first cell) and the cells after it. */
  row?: { label: string; rest: string };
}

/** Sentences and table rows (tab-separated lines) of each document, verbatim. */
export function unitsOf(documents: SchemaFillDocument[]): Unit[] {
  const units: Unit[] = [];
  documents.forEach((doc, i) => {
    for (const span of sentenceSpans(doc.text)) {
      const lines = span.text.split('\n');
      if (lines.every((line) => line.includes('\t'))) {
        for (const line of lines) {
          const [label, ...cells] = line.split('\t');
          units.push({ doc: i, text: line, row: { label: label!.trim(), rest: cells.join(' ').trim() } });
        }
      } else {
        units.push({ doc: i, text: span.text });
      }
    }
  });
  return units;
}
