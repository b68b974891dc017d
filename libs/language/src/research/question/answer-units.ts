/** Passages cut into the units an answer is read from: sentences, list lines and table rows. */
import { sentenceSpans, tokenize } from '@app/text';
import type { QuestionShape } from './question-shape';

/** One sentence or table row of a passage, verbatim, with what the question needs to know of it. */
export interface AnswerUnit {
  source: number;
  text: string;
  /** Table rows: the header cells of their table, for picking the column a question names. */
  header?: string[];
  /** The passage is about the question's entity (its title or text names it). */
  about: boolean;
}

/** Sentences and table rows of passages (tab-separated lines as the extractor writes tables). */
export function answerUnits(
  passages: Array<{ source: number; title: string; text: string; url?: string }>,
  shape: Pick<QuestionShape, 'entity'>,
  minChars: number,
  maxChars: number,
): AnswerUnit[] {
  const units: AnswerUnit[] = [];
  for (const p of passages) {
    // The site's own name counts: a museum's "Plan your visit" page need not repeat the museum's name.
    const words = new Set(tokenize(`${p.title} ${p.text} ${hostWords(p.url)}`));
    // Pages shorten names ("the Halvergate Institute" for "… for Coastal Research"): half of its words do.
    // The name's first word is its distinctive one ("Tamsworth" of "Tamsworth Polytechnic"): a page must have it.
    const entity = [...shape.entity];
    const named = entity.filter((e) => words.has(e)).length;
    const about = entity.length === 0 || (words.has(entity[0]!) && named >= Math.ceil(entity.length / 2));
    for (const span of sentenceSpans(p.text)) {
      const lines = span.text.split('\n');
      if (lines.length > 1 && lines.every((line) => line.includes('\t'))) {
        const header = lines[0]!.split('\t').map((c) => c.trim());
        for (const line of lines.slice(1)) units.push({ source: p.source, text: line, header, about });
        continue;
      }
      if (lines.length > 1) {
        // A list ("Founded: 1966" / "Staff: 540"): each line is its own statement, short ones too.
        for (const line of lines.map((l) => l.trim()))
          if (line.length >= 8 && line.length <= maxChars) units.push({ source: p.source, text: line, about });
        continue;
      }
      if (span.text.length >= minChars && span.text.length <= maxChars)
        units.push({ source: p.source, text: span.text, about });
    }
  }
  return units;
}

/** `https://fenwright-museum.test/visit` -> "fenwright museum": the host's name words. */
const hostWords = (url: string | undefined): string => {
  if (!url) return '';
  try {
    return new URL(url).hostname
      .split('.')
      .slice(0, -1)
      .filter((p) => p !== 'www')
      .join(' ')
      .replace(/-/g, ' ');
  } catch {
    return '';
  }
};
