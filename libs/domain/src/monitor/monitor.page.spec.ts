import { diffLines, pageMonitorEvent, pageText } from './monitor.page';

describe('page monitor diff', () => {
  it('reports the lines added and removed, in order, ignoring blank lines and line-end whitespace', () => {
    const before = 'Title\n\nBasic costs 10.\nPro costs 30.\n';
    const after = 'Title  \nBasic costs 10.\n\nPro costs 35.\nTeam costs 50.';
    expect(diffLines(before, after)).toEqual({
      added: ['Pro costs 35.', 'Team costs 50.'],
      removed: ['Pro costs 30.'],
      summary: '2 lines added, 1 line removed',
    });
  });

  it('counts repeated lines: one of two copies removed is one line removed', () => {
    expect(diffLines('a\nb\na', 'a\nb')).toEqual({
      added: [],
      removed: ['a'],
      summary: '0 lines added, 1 line removed',
    });
  });

  it('says no change when the lines are the same', () => {
    expect(diffLines('a\nb', ' a\n\nb ')).toEqual({ added: [], removed: [], summary: 'no change' });
  });

  it('a first run is changed, every line added; the same content again is unchanged', () => {
    const base = {
      event_id: 'e1',
      monitor_id: 'm1',
      ran_at: 't',
      mode: 'diff' as const,
      url: 'https://x.test/p',
      title: 'P',
      domain: 'x.test',
      content_hash: 'h',
      slots_covered: 1,
    };
    const first = pageMonitorEvent({ ...base, content: pageText('a\nb'), previous: null });
    expect(first).toMatchObject({
      status: 'changed',
      results_count: 1,
      results: [{ url: 'https://x.test/p', title: 'P' }],
      diff: { added: ['a', 'b'], removed: [] },
    });
    expect(pageMonitorEvent({ ...base, content: 'a\nb', previous: 'a\nb' }).status).toBe('unchanged');
  });
});
