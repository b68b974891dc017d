import { fakeModel, fakePorts, recorder, stateFor } from '../testing/stage-fakes';
import { plan } from './plan';

describe('plan stage', () => {
  it('keeps the model plan one-lined, unique and capped, charges one planner call and records the plan', async () => {
    const state = stateFor({ maxSubqueries: 3, pagesPerSubquery: 2 });
    const model = fakeModel({
      plan: ['widget  maker', 'widget maker', '  ', 'who\nbuilds widgets', 'widget price', 'extra'],
    });
    const progress = recorder();
    expect(await plan(state, fakePorts({}, {}, model), progress)).toBe(false);
    expect(model.asked).toEqual([['plan', 'Who makes the widget?', ['widget maker'], 3]]);
    expect(state.subqueries).toEqual(['widget maker', 'who builds widgets', 'widget price']);
    expect(state.usage).toMatchObject({ planner_calls: 1, tokens: { input: 10, output: 2 } });
    expect(progress.calls).toEqual([['planned', state.subqueries, 6]]);
  });

  it('a stopped run asks nothing', async () => {
    const state = stateFor();
    const model = fakeModel({ plan: ['a'] });
    expect(await plan(state, fakePorts({}, {}, model), recorder(0))).toBe(true);
    expect(model.asked).toEqual([]);
    expect(state.subqueries).toEqual([]);
  });
});
