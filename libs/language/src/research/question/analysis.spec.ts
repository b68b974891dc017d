import nlp from 'compromise';
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { extractiveFollowUps, gradeExtractive, promptAnswer } from '../extractive.research-model';
import { analyse, analysesSince, analysisCount } from './analysis';
import { shortAnswer } from './best-answer';

const page = (source: number, title: string, text: string): ResearchPassage => ({
  source,
  url: `https://pages.example.org/${source}`,
  title,
  text,
});

const society = page(
  1,
  'Orrelwick Lantern Society',
  'The Orrelwick Lantern Society is a guild of lamp makers in Pellbury. It was founded in 1911 by Tamsin Greave, a glassmaker. The society opened its first hall on 3 March 1914. Today the society owns 214 lanterns and keeps them in the hall.',
);
const greave = page(
  2,
  'Tamsin Greave',
  'Tamsin Greave (born 1880) was a glassmaker and the founder of the Orrelwick Lantern Society. Tamsin Greave was born in Pellbury, a town on the Vell estuary.',
);
const quill = page(
  3,
  'Brannoch Quill',
  'Brannoch Quill (born 1893) was a musician from Orrelwick. Brannoch Quill played the hurdy-gurdy in the Vell Valley Band for thirty years.',
);
const pellbury = page(4, 'Pellbury', 'Pellbury is a town on the Vell estuary, known for its glassworks.');
const orrelwick = page(5, 'Orrelwick', 'Orrelwick is a town in the hills above the Vell valley.');
const passages = [society, greave, quill, pellbury, orrelwick];

/** A question of each kind the short reading knows, over the pages above. */
const QUESTIONS: Array<[string, string]> = [
  ['person', 'Who founded the Orrelwick Lantern Society?'],
  ['place', 'Where was Tamsin Greave born?'],
  ['date', 'When did the Orrelwick Lantern Society open its first hall?'],
  ['year', 'In what year was the Orrelwick Lantern Society founded?'],
  ['number', 'How many lanterns does the Orrelwick Lantern Society own?'],
  ['thing', 'What instrument did Brannoch Quill play?'],
  ['yesno', 'Are both Pellbury and Orrelwick towns?'],
  ['choice', 'Who was born first, Tamsin Greave or Brannoch Quill?'],
];

describe('analyse: one analysis of the question per answer', () => {
  it.each(QUESTIONS)('reads a %s question', (kind, question) => {
    expect(analyse(question).short?.kind).toBe(kind);
  });

  it.each([
    ['organisation', 'Which retailer first sold Orrelwick lanterns?'],
    ['organisation', 'Which bank lent the Orrelwick Lantern Society its first hall?'],
    ['person', 'Which violinist played at the first hall?'],
  ])('reads a noun of the lexicon before WordNet: %s for "%s"', (kind, question) => {
    expect(analyse(question).short?.kind).toBe(kind);
  });

  it.each(QUESTIONS)('gradeExtractive analyses a %s question once', (_kind, question) => {
    const mark = analysisCount();
    const finding = gradeExtractive(question, passages);
    expect(analysesSince(mark)).toBe(1);
    expect(finding).not.toBeNull();
  });

  it.each(QUESTIONS)('promptAnswer analyses a %s question once', (_kind, question) => {
    const finding = gradeExtractive(question, passages)!;
    const mark = analysisCount();
    promptAnswer(question, [finding]);
    expect(analysesSince(mark)).toBe(1);
  });

  it('promptAnswer analyses each question it considers that has a finding: a restatement without one costs none', () => {
    const [, question] = QUESTIONS[0]!;
    const finding = gradeExtractive(question, passages)!;
    let mark = analysisCount();
    promptAnswer(question, [finding], ['Who leads the Vell Valley Band?']);
    expect(analysesSince(mark)).toBe(1);
    // No finding at all: nothing to read a value from, nothing analysed.
    mark = analysisCount();
    expect(promptAnswer(question, [])).toBeNull();
    expect(analysesSince(mark)).toBe(0);
  });

  it('a question already analysed is not analysed again, and the answer is the same', () => {
    const [, question] = QUESTIONS[1]!;
    const analysis = analyse(question);
    const mark = analysisCount();
    const again = gradeExtractive(question, passages, analysis);
    expect(analysesSince(mark)).toBe(0);
    expect(again).toEqual(gradeExtractive(question, passages));
  });

  it('the other entry points analyse once too', () => {
    const [, question] = QUESTIONS[0]!;
    let mark = analysisCount();
    shortAnswer(question, passages);
    expect(analysesSince(mark)).toBe(1);
    mark = analysisCount();
    extractiveFollowUps(question, passages, 2);
    expect(analysesSince(mark)).toBe(1);
  });

  it('counts analyses, not readings: tokenizing or tagging the question is no analysis', () => {
    const [, question] = QUESTIONS[0]!;
    const mark = analysisCount();
    // The lexical reading tokenizes the question and compromise tags it: neither is counted.
    expect(tokenize(question).length).toBeGreaterThan(0);
    expect(nlp(question).terms().length).toBeGreaterThan(0);
    expect(analysesSince(mark)).toBe(0);
    analyse(question);
    expect(analysesSince(mark)).toBe(1);
  });
});
