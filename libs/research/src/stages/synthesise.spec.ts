import { UnresolvedCitationError } from '../citations';
import { fakeModel, fakePorts, finding, hit, recorder, stateFor } from '../testing/stage-fakes';
import { mergedResults, numberSources, outcomeOf } from './state';
import { synthesise } from './synthesise';

const withSource = (input: Parameters<typeof stateFor>[0] = {}) =>
  stateFor(input, (s) => {
    s.subqueries = ['widget maker'];
    s.entries.add(hit('https://x.example/acme', 0.9, { content: 'Acme makes widgets.' }), 0.9, 0);
    s.sources = numberSources(mergedResults(s), s.entries, s.docs, s.subqueries);
    s.findings.push(finding('widget maker', 1));
  });

describe('synthesise stage', () => {
  it('writes the report over the findings and sources, charges one synthesis call', async () => {
    const state = withSource();
    const model = fakeModel({ report: 'Acme makes widgets [1].' });
    expect(await synthesise(state, fakePorts({}, {}, model), recorder())).toBe(false);
    expect(model.asked).toEqual([['synthesise', 'Who makes the widget?', 1, [1]]]);
    expect(outcomeOf(state, false)).toMatchObject({
      stopped: false,
      report: 'Acme makes widgets [1].',
      usage: { synth_calls: 1, tokens: { input: 10, output: 2 } },
    });
  });

  it('skips the call when the input says so, and refuses a report citing an unknown source', async () => {
    const skipped = withSource({ synthesise: false });
    const model = fakeModel({ report: 'Acme makes widgets [2].' });
    expect(await synthesise(skipped, fakePorts({}, {}, model), recorder())).toBe(false);
    expect(model.asked).toEqual([]);
    expect(skipped.report).toBeNull();
    await expect(synthesise(withSource(), fakePorts({}, {}, model), recorder())).rejects.toBeInstanceOf(
      UnresolvedCitationError,
    );
  });

  it('a stopped run writes nothing', async () => {
    const state = withSource();
    expect(await synthesise(state, fakePorts({}, {}, fakeModel({ report: 'x' })), recorder(0))).toBe(true);
    expect(outcomeOf(state, true)).toMatchObject({ stopped: true, report: null });
  });
});
