import { fakeModel, fakePorts, finding, hit, recorder, stateFor } from '../testing/stage-fakes';
import { followUp, followUpRound, passagesOver } from './follow-up';
import { numberSources, mergedResults, type ResearchState } from './state';

/** After round 1: one sub-query, one source (with text naming the CEO). */
function graded(input: Parameters<typeof stateFor>[0] = {}): ResearchState {
  return stateFor({ prompt: 'Where did the widget maker CEO study?', maxSubqueries: 3, ...input }, (s) => {
    s.subqueries = ['widget maker CEO'];
    s.entries.add(
      hit('https://x.example/acme', 0.9, { content: 'Acme makes widgets. Its CEO is Dana Whitcombe.' }),
      0.9,
      0,
    );
    s.sources = numberSources(mergedResults(s), s.entries, s.docs, s.subqueries);
  });
}

const SERPS = {
  'Dana Whitcombe education': [[hit('https://x.example/dana', 0.8), hit('https://x.example/acme?ref=x', 0.95)]],
};
const TEXTS = { 'https://x.example/dana': 'Dana Whitcombe studied at Northfield.' };
const VIA = { source: 1, quote: 'Its CEO is Dana Whitcombe.' };

describe('follow-up stage', () => {
  it('plans new sub-queries from the evidence, searches, reads and grades them; new sources numbered after the old', async () => {
    const state = graded();
    const model = fakeModel({
      followUps: [
        [
          { subquery: 'Dana  Whitcombe education', restates: true, via: VIA },
          { subquery: 'CEO widget maker', restates: false, via: null },
        ],
      ],
      grade: (subquery, sources) => finding(subquery, sources[sources.length - 1]!),
    });
    const ports = fakePorts(SERPS, TEXTS, model);
    const progress = recorder();
    expect(await followUpRound(state, ports, progress, 2)).toBe('next');
    expect(model.asked[0]).toEqual(['followUp', 'Where did the widget maker CEO study?', [1], 2]);
    // "CEO widget maker" is the same search as "widget maker CEO": dropped.
    expect(state.subqueries).toEqual(['widget maker CEO', 'Dana Whitcombe education']);
    expect(progress.calls.map((c) => c[0])).toEqual([
      'planned',
      'serpPage',
      'resultsMerged',
      'pageFetched',
      'findingGraded',
    ]);
    expect(progress.calls[0]).toEqual(['planned', state.subqueries, 2, 2]);
    expect(state.sources!.map((s) => [s.index, s.url])).toEqual([
      [1, 'https://x.example/acme'],
      [2, 'https://x.example/dana'],
    ]);
    expect(state.findings).toEqual([
      { ...finding('Dana Whitcombe education', 2), citations: [2, 1], evidence: [{ source: 2, quote: 'quote' }, VIA] },
    ]);
    expect(state.restatements).toEqual(['Dana Whitcombe education']);
    expect(state.question).toBe('Dana Whitcombe education');
    expect(state.usage).toMatchObject({ planner_calls: 1, search_queries: 1, pages_fetched: 1, grader_calls: 1 });
  });

  it('ends when the model follows nothing new, and runs at most two rounds', async () => {
    const none = graded();
    const model = fakeModel({ followUps: [[{ subquery: 'widget maker CEO', restates: true, via: null }]] });
    expect(await followUpRound(none, fakePorts({}, {}, model), recorder(), 2)).toBe('done');
    expect(none.subqueries).toEqual(['widget maker CEO']);

    const rounds = graded({ maxSubqueries: 12 });
    const restating = (n: number) => [{ subquery: `question ${n}`, restates: true, via: null }];
    const asking = fakeModel({ followUps: [restating(1), restating(2), restating(3)] });
    expect(await followUp(rounds, fakePorts({}, {}, asking), recorder())).toBe(false);
    expect(asking.asked.filter((c) => c[0] === 'followUp').map((c) => c[1])).toEqual([
      'Where did the widget maker CEO study?',
      'question 1',
    ]);
    expect(rounds.subqueries).toEqual(['widget maker CEO', 'question 1', 'question 2']);
  });

  it('a bridge is searched and read for the question itself: the question is graded again, and a finding resting on the bridge page answers it', async () => {
    const state = stateFor(
      { prompt: 'Which founder of the widget maker studied at Northfield?', maxSubqueries: 3 },
      (s) => {
        s.subqueries = ['widget maker founder'];
        s.entries.add(
          hit('https://x.example/acme', 0.9, { content: 'Acme makes widgets. It was founded by Dana Whitcombe.' }),
          0.9,
          0,
        );
        s.sources = numberSources(mergedResults(s), s.entries, s.docs, s.subqueries);
      },
    );
    const via = { source: 1, quote: 'It was founded by Dana Whitcombe.' };
    const model = fakeModel({
      followUps: [[{ subquery: 'Dana Whitcombe', restates: false, regrade: true, via }]],
      // The question graded over what was read: the bridge's page (2) answers it.
      grade: (subquery, sources) =>
        subquery === 'Dana Whitcombe' ? null : finding(subquery, sources.includes(2) ? 2 : 1),
    });
    const ports = fakePorts(
      { 'Dana Whitcombe': [[hit('https://x.example/dana', 0.8)]] },
      { 'https://x.example/dana': 'Dana Whitcombe studied at Northfield.' },
      model,
    );
    const progress = recorder();
    expect(await followUpRound(state, ports, progress, 2)).toBe('done');
    expect(state.subqueries).toEqual(['widget maker founder', 'Dana Whitcombe']);
    // The question graded again over both pages: the bridge's answers it, and the sentence that led there is cited too.
    expect(model.asked.filter((c) => c[0] === 'grade').map((c) => [c[1], c[2]])).toEqual([
      ['Dana Whitcombe', [1, 2]],
      ['Which founder of the widget maker studied at Northfield?', [1, 2]],
    ]);
    expect(state.findings).toEqual([
      {
        ...finding('Which founder of the widget maker studied at Northfield?', 2),
        citations: [2, 1],
        evidence: [{ source: 2, quote: 'quote' }, via],
      },
    ]);
    expect(state.restatements).toEqual([]);
    expect(state.usage).toMatchObject({ search_queries: 1, pages_fetched: 1, grader_calls: 2 });
  });

  it('keeps no regraded finding that does not rest on the bridge page (the same pages read again are no news)', async () => {
    const state = stateFor(
      { prompt: 'Which founder of the widget maker studied at Northfield?', maxSubqueries: 3 },
      (s) => {
        s.subqueries = ['widget maker founder'];
        s.entries.add(
          hit('https://x.example/acme', 0.9, { content: 'Acme makes widgets. It was founded by Dana Whitcombe.' }),
          0.9,
          0,
        );
        s.sources = numberSources(mergedResults(s), s.entries, s.docs, s.subqueries);
      },
    );
    const model = fakeModel({
      followUps: [
        [
          {
            subquery: 'Dana Whitcombe',
            restates: false,
            regrade: true,
            via: { source: 1, quote: 'It was founded by Dana Whitcombe.' },
          },
        ],
      ],
      grade: (subquery) => (subquery === 'Dana Whitcombe' ? null : finding(subquery, 1)),
    });
    const ports = fakePorts(
      { 'Dana Whitcombe': [[hit('https://x.example/dana', 0.8)]] },
      { 'https://x.example/dana': 'Dana Whitcombe studied at Northfield.' },
      model,
    );
    expect(await followUpRound(state, ports, recorder(), 2)).toBe('done');
    expect(state.findings).toEqual([]);
  });

  it('passagesOver gives the sources sharing most of the question words, in source order', () => {
    const state = graded();
    expect(passagesOver('Who is the CEO?', state.sources!, state.entries, state.docs)).toEqual([
      {
        source: 1,
        url: 'https://x.example/acme',
        title: 'T https://x.example/acme',
        text: 'Acme makes widgets. Its CEO is Dana Whitcombe.',
      },
    ]);
  });
});
