import { fakeModel, fakePorts, finding, hit, recorder, stateFor } from '../testing/stage-fakes';
import { checkedFinding, grade } from './grade';
import { numberSources, mergedResults, type ResearchState } from './state';

/** Sub-query 0 ("widget maker") found s1 and s2 (s2 read, failed); sub-query 1 ("gadget") found s3, which mentions widgets. */
function read(): ResearchState {
  return stateFor({}, (s) => {
    s.subqueries = ['widget maker', 'gadget'];
    s.entries.add(hit('https://x.example/s1', 0.9), 0.9, 0);
    s.entries.add(hit('https://x.example/s2', 0.8), 0.8, 0);
    s.entries.add(
      hit('https://x.example/s3', 0.7, { content: 'A gadget page that names the widget maker Acme.' }),
      0.7,
      1,
    );
    s.docs.set('x.example/s2', { ok: false, title: null, text: '' });
    s.sources = numberSources(mergedResults(s), s.entries, s.docs, s.subqueries);
  });
}

describe('grade stage', () => {
  it("grades each sub-query on its own passages and others' that share its terms, keeps checked findings and records them", async () => {
    const state = read();
    const model = fakeModel({
      grade: (subquery, sources) =>
        subquery === 'widget maker' ? { ...finding(subquery, sources[0]!), citations: [1, 9] } : null,
    });
    const progress = recorder();
    expect(await grade(state, fakePorts({}, {}, model), progress)).toBe(false);
    // s2's read failed: no passage; s3 mentions "widget", so it joins sub-query 0's passages.
    expect(model.asked).toEqual([
      ['grade', 'widget maker', [1, 3]],
      ['grade', 'gadget', [3]],
    ]);
    expect(state.findings).toEqual([{ ...finding('widget maker', 1), citations: [1] }]);
    expect(progress.calls).toEqual([['findingGraded', state.findings[0]]]);
    expect(state.usage).toMatchObject({ grader_calls: 2, tokens: { input: 20, output: 4 } });
  });

  it('grades from `from` on, and adds the passage that led to a follow-up to its finding', async () => {
    const state = read();
    const model = fakeModel({ grade: (subquery) => finding(subquery, 3) });
    const via = new Map([['gadget', { source: 1, quote: 'the sentence naming it' }]]);
    await grade(state, fakePorts({}, {}, model), recorder(), 1, via);
    expect(state.findings).toEqual([
      { ...finding('gadget', 3), citations: [3, 1], evidence: [{ source: 3, quote: 'quote' }, via.get('gadget')] },
    ]);
  });

  it('checkedFinding keeps only citations and evidence of the passages shown', () => {
    const passages = [{ source: 2, url: 'u', title: 't', text: 'x' }];
    expect(checkedFinding({ ...finding('q', 5), citations: [2, 5] }, 'other', passages)).toBeNull();
    expect(checkedFinding({ ...finding('q', 2), citations: [5] }, 'other', passages)).toEqual({
      ...finding('other', 2),
      citations: [2],
    });
  });
});
