/** Follow-ups: a question restated with the name the passages give what it only describes (a role-holder, a person's organisation, a described thing), or a bridge's name to search for. */
import { oneLine, type FollowUp, type ResearchPassage } from '@app/research';
import { affiliationName } from './question/affiliation';
import { analyse, type QuestionAnalysis } from './question/analysis';
import { answerUnits } from './question/answer-units';
import { bridgeNames } from './question/bridge';
import { describedName, describedObject } from './question/described';
import { roleHolder } from './question/role-holder';
import { gradeRules } from './grade';
import { clean, MAX_SENTENCE, MIN_SENTENCE } from './quotes';

/**
 * A question about whoever holds a role at an entity ("Where did the chief executive of X study?")
 * is restated with the name the passages give that role-holder ("…, our chief executive, Dana
 * Whitcombe, …" -> "Where did Dana Whitcombe study?"): the person's own page may never name X.
 */
export function extractiveFollowUps(question: string, passages: ResearchPassage[], max = 1): FollowUp[] {
  const analysis = analyse(question);
  const restated = restatedFollowUps(analysis, passages);
  if (restated.length > 0) return restated;
  // A bridge: the name the best sentences give a thing the question describes, read for the
  // question itself, unless the pages already answer it surely.
  // (The answer the pages already give is no bridge: "the University of Tartu" answers "Where did
  // Dana Whitcombe study?", it leads nowhere.)
  // (The names first: the pages are graded again only when there is one to follow.)
  const names = bridgeNames(analysis, passages, max + 1);
  if (names.length === 0) return [];
  // (The rules' own reading decides, as the answer model was trained on the pipeline that follows them.)
  const current = gradeRules(question, passages, analysis);
  if (current?.confidence === 'high') return [];
  const answer = current ? clean(current.answer).toLowerCase() : '';
  return names
    .filter((b) => !answer || !answer.includes(b.name.toLowerCase()))
    .slice(0, max)
    .map((b) => ({ subquery: b.name, restates: false, regrade: true, via: { source: b.source, quote: b.quote } }));
}

function restatedFollowUps(analysis: QuestionAnalysis, passages: ResearchPassage[]): FollowUp[] {
  const { text: question, shape } = analysis;
  // "In what year was the company where Henrik Salvesen works founded?": the company's name first.
  const tie = analysis.affiliation;
  if (tie) {
    const named = affiliationName(tie.person, passages);
    if (!named) return [];
    return [
      {
        subquery: oneLine(question.replace(tie.phrase, named.name)),
        restates: true,
        via: { source: named.unit.source, quote: named.unit.text },
      },
    ];
  }
  // "Who is the chief executive of X?" is answered by the name itself: nothing to follow.
  if (!shape.relation || shape.kind === 'person') return [];
  const units = answerUnits(passages, shape, MIN_SENTENCE, MAX_SENTENCE);
  // "The designer of X's flagship pump": first the name X's pages give the pump, then its designer.
  const described = describedObject(question, shape);
  if (described) {
    const named = describedName(described.descriptor, shape, units);
    if (!named) return [];
    const restated = oneLine(question.replace(described.text, named.name));
    return [{ subquery: restated, restates: true, via: { source: named.unit.source, quote: named.unit.text } }];
  }
  const holder = roleHolder(shape, units);
  if (!holder) return [];
  const restated = oneLine(question.replace(shape.relation.phrase, holder.name));
  return [{ subquery: restated, restates: true, via: { source: holder.unit.source, quote: holder.unit.text } }];
}
