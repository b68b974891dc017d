/** Who holds the role a question asks about ("the chief executive of X"), as the entity's pages name them. */
import { nlp } from '../../lazy-parsers';
import { tokenize } from '@app/text';
import type { AnswerUnit } from './answer-units';
import type { QuestionShape } from './question-shape';
import { caseBlind, ROLE_PATTERN } from './roles';

const ORGANISATION_WORD =
  /\b(?:Capital|Partners|Group|Ventures|Holdings|Ltd|Limited|Inc|LLC|GmbH|AG|SA|Fund|Bank|Foundation|Trust|Systems|Company|Corporation|University|Institute|College|Council|Agency|Labs?|Studio|Media|Investments?)\b/;
const PRONOUN = /^(?:She|He|They|It|We|I|You|This|That|Who|Which|Our|Their|His|Her)$/;
const HONORIFIC = /^(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms|Mx|Sir|Dame|Lord|Lady)\.?\s+)+/;

/**
 * Who holds the question's role at its entity, as the units name them: "our chief executive, Dana
 * Whitcombe", "Dana Whitcombe, founder", "founded by Dana Whitcombe", "Dana Whitcombe leads …".
 */
export function roleHolder(shape: QuestionShape, units: AnswerUnit[]): { name: string; unit: AnswerUnit } | null {
  if (!shape.relation) return null;
  const role = caseBlind(shape.relation.role);
  const name = "(\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:van|von|de|da|del|le|la)?\\s*\\p{Lu}[\\p{L}'’-]+){1,3})";
  const by = (words: string[]) => words.map((w) => caseBlind(w)).join('|');
  const roleWords = /found/.test(shape.relation.role)
    ? `(?:${role}|${by(['founded by', 'co-founded by', 'started by', 'set up by', 'established by'])})`
    : /^(?:ceo|chief executive|chief executive officer|managing director|head|leader|director|president|chair|chairman|chairwoman|chairperson|principal|rector)$/.test(
          shape.relation.role,
        )
      ? `(?:${role}|${by(['led by', 'headed by', 'run by', 'managed by', 'chaired by', 'directed by'])})`
      : /design|creat|invent|author/.test(shape.relation.role)
        ? `(?:${role}|${by(['designed by', 'created by', 'invented by', 'written by', 'drawn by'])})`
        : /owner/.test(shape.relation.role)
          ? `(?:${role}|${by(['owned by'])})`
          : role;
  const verbs = /found/.test(shape.relation.role)
    ? 'co-founded|founded|started|set up|established'
    : /^(?:ceo|chief executive|chief executive officer|managing director|head|leader|director|president)$/.test(
          shape.relation.role,
        )
      ? 'runs|leads|heads|has led|has run|has headed|took over'
      : /design|creat|invent/.test(shape.relation.role)
        ? 'designed|created|invented'
        : null;
  const patterns = [
    new RegExp(`${role}(?:\\s+(?:and\\s+)?[\\p{Ll}]+){0,4}?[,:]?\\s+${name}`, 'u'),
    new RegExp(
      `${name}\\s*(?:[,:–—-]\\s*)?(?:(?:is|was|has been|serves as|became|as)\\s+)?(?:(?:the|our|its|their)\\s+)?(?:[\\p{L}-]+\\s+){0,3}?${role}\\b`,
      'u',
    ),
    new RegExp(`${name}\\s*\\((?:[^)]*\\b)?${role}\\b`, 'u'),
    // "The Director of the Halden Institute is Dr Maren Kiel": the role, its entity, then the name.
    new RegExp(
      `${role}\\s+(?:of|at)\\s+(?:the\\s+)?(?:\\p{Lu}[\\p{L}'’&-]*\\s+(?:(?:of|for|and|on)\\s+)?){1,7}(?:is|was|has been)\\s+(?:(?:Dr|Prof|Professor|Sir|Dame|Mr|Mrs|Ms|Mx)\\.?\\s+)?${name}`,
      'u',
    ),
    // "Dana Whitcombe founded …", "… runs …": the verb of the role.
    ...(verbs ? [new RegExp(`${name}\\s+(?:${verbs})\\b`, 'u')] : []),
    // "led by …", "founded by …": weaker, as a funding round or a project is led by someone too.
    new RegExp(`${roleWords}(?:\\s+(?:and\\s+)?[\\p{Ll}]+){0,4}?[,:]?\\s+${name}`, 'u'),
  ];
  // A first name alone ("Mette joined Skarnvik as chief executive"), weakest of all: pages about the
  // person may still give the full name, and a search for the first name with the question finds them.
  const single = "(\\p{Lu}[\\p{L}'’-]+)";
  const firstNamePatterns = [patterns[0]!, patterns[1]!].map((p) => new RegExp(p.source.split(name).join(single), 'u'));
  const personRole = !/company|supplier|owner|partner/.test(shape.relation.role);
  let best: { name: string; unit: AnswerUnit; score: number } | null = null;
  const score0 = (pattern: number, order: number) => (20 - pattern) * 0.1 - order / 10_000;
  const all = [
    ...patterns.map((p, i) => ({ p, weight: i, minWords: 2 })),
    ...firstNamePatterns.map((p, i) => ({ p, weight: 10 + i, minWords: 1 })),
  ];
  units.forEach((unit, order) => {
    // Only a page about the question's entity says who holds its role (another body has its own).
    if (!unit.about) return;
    for (const { p: pattern, weight: i, minWords } of all) {
      const m = pattern.exec(unit.text);
      if (!m) continue;
      const found = m[1]!.replace(/['’]s$/, '').trim();
      // The role word itself capitalised ("Chief Executive Dana …") is not part of the name.
      const cleaned = found
        .split(/\s+/)
        .filter(
          (w) =>
            !new RegExp(`^(?:${ROLE_PATTERN}|Chief|Executive|Officer|Our|The|Its|Their|Managing|Director)$`, 'i').test(
              w,
            ),
        )
        .join(' ');
      if (
        !cleaned ||
        cleaned.split(' ').length < minWords ||
        PRONOUN.test(cleaned) ||
        tokenize(cleaned).some((t) => shape.entity.has(t))
      )
        continue;
      // A nationality is capitalised but names no one ("its director has written to the Scottish government").
      if (nlp(cleaned).has('#Demonym')) continue;
      // A person holds a person's role: "Pellbrook Capital" led a funding round, not the company.
      if (personRole && ORGANISATION_WORD.test(cleaned)) continue;
      // A title is not part of the name pages use for the person ("Dr Ewan Strachie" -> "Ewan Strachie").
      const bare = cleaned.replace(HONORIFIC, '');
      if (bare.split(' ').length >= 2 && bare !== cleaned) {
        if (!best || score0(i, order) > best.score) best = { name: bare, unit, score: score0(i, order) };
        continue;
      }
      const score = score0(i, order);
      if (!best || score > best.score) best = { name: cleaned, unit, score };
    }
  });
  return best ? { name: (best as { name: string }).name, unit: (best as { unit: AnswerUnit }).unit } : null;
}
