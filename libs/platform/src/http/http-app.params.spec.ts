/** The HTTP layer's query, path and header parameters, validated as the sample app declares them. */
import { errorsOf, get, useSampleApp } from './testing/sample-app';

useSampleApp();

describe('query, path and header parameters', () => {
  it('parses query strings laxly, repeated params into lists, with defaults', async () => {
    const r = await get('/items?q=x&limit=5&tag=a&tag=b&archived=yes&other=1');
    expect([r.statusCode, r.json()]).toEqual([200, { q: 'x', limit: 5, tag: ['a', 'b'], archived: true }]);
    expect((await get('/items?q=x&tag=a')).json()).toEqual({ q: 'x', limit: 10, tag: ['a'], archived: false });
  });

  it('reports a bad date as date_parsing at ["query","from"]', async () => {
    expect(await errorsOf(get('/items?q=x&from=yesterday'))).toEqual([
      {
        type: 'date_parsing',
        loc: ['query', 'from'],
        msg: 'Input should be a valid date in the format YYYY-MM-DD, input is too short',
        input: 'yesterday',
        ctx: { error: 'input is too short' },
      },
    ]);
  });

  it('reports missing query params with input null and the last of repeated scalars', async () => {
    expect(await errorsOf(get('/items?limit=1&limit=500&archived=maybe'))).toEqual([
      { type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null },
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 100',
        input: '500',
        ctx: { le: 100 },
      },
      {
        type: 'bool_parsing',
        loc: ['query', 'archived'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ]);
  });

  it('validates path params and headers with their own loc prefix', async () => {
    const okRes = await get('/tasks/t_1', { 'x-priority': '2', 'x-request-id': 'r1' });
    expect(okRes.json()).toEqual({ params: { task_id: 't_1' }, headers: { requestId: 'r1', priority: 2 } });
    expect(await errorsOf(get('/tasks/x_1'))).toEqual([
      {
        type: 'string_pattern_mismatch',
        loc: ['path', 'task_id'],
        msg: "String should match pattern '^t_'",
        input: 'x_1',
        ctx: { pattern: '^t_' },
      },
    ]);
    expect(await errorsOf(get('/tasks/t_1', { 'x-priority': 'high' }))).toEqual([
      {
        type: 'int_parsing',
        loc: ['header', 'x-priority'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'high',
      },
    ]);
  });
});
