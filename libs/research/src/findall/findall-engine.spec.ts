import { checkCondition } from './check-conditions';
import { deriveFindAllSchema } from './derive-schema';
import { entityKey, listRows } from './list-pages';

describe('deriveFindAllSchema', () => {
  it('reads the type and three conditions of a query', () => {
    const schema = deriveFindAllSchema('robotics companies founded after 2010 headquartered in Berlin');
    expect(schema.entity_type).toBe('companies');
    expect(schema.conditions).toEqual([
      { name: 'robotics', kind: 'keyword', value: 'robotics' },
      { name: 'founded after 2010', kind: 'year_after', value: 2010 },
      { name: 'headquartered in Berlin', kind: 'place', value: 'Berlin' },
    ]);
    expect(schema.generator.queries[0]).toBe('robotics companies founded after 2010 headquartered in Berlin');
  });
  it('reads places, years and head counts in other words', () => {
    expect(deriveFindAllSchema('companies based in Hamburg').conditions).toEqual([
      { name: 'headquartered in Hamburg', kind: 'place', value: 'Hamburg' },
    ]);
    expect(deriveFindAllSchema('startups with more than 100 employees').conditions).toEqual([
      { name: 'more than 100 employees', kind: 'count_more', value: 100 },
    ]);
    expect(deriveFindAllSchema('biotech firms founded before 2015').conditions.map((c) => c.kind)).toEqual([
      'keyword',
      'year_before',
    ]);
  });
});

describe('checkCondition', () => {
  const page = {
    url: 'https://r.test/a',
    title: 'A',
    text: 'Alpha Robotics is a robotics company based in Berlin. The company has been operating since 2016 and counts 1,200 employees.',
  };
  it('compares years and counts as numbers and places as names, with the deciding sentence', () => {
    expect(checkCondition({ name: 'founded after 2015', kind: 'year_after', value: 2015 }, page)).toMatchObject({
      holds: true,
      excerpt: expect.stringContaining('2016'),
    });
    expect(checkCondition({ name: 'founded after 2016', kind: 'year_after', value: 2016 }, page).holds).toBe(false);
    expect(checkCondition({ name: 'more than 1000 employees', kind: 'count_more', value: 1000 }, page).holds).toBe(
      true,
    );
    expect(checkCondition({ name: 'headquartered in Berlin', kind: 'place', value: 'Berlin' }, page)).toMatchObject({
      holds: true,
      evidence_url: page.url,
    });
    expect(checkCondition({ name: 'headquartered in Munich', kind: 'place', value: 'Munich' }, page).holds).toBe(false);
    expect(checkCondition({ name: 'biotech', kind: 'keyword', value: 'biotech' }, page)).toEqual({
      condition: 'biotech',
      holds: false,
      evidence_url: null,
      excerpt: null,
    });
  });
});

describe('listRows', () => {
  it('reads table rows and list items that start with a link, and the next-page link', () => {
    const md = [
      '| Company | About |',
      '| --- | --- |',
      ...['a', 'b', 'c', 'd', 'e'].map((x) => `| [${x.toUpperCase()} GmbH](https://r.test/${x}) | About ${x} |`),
      '',
      '[Next page](https://r.test/page-2)',
    ].join('\n');
    const { rows, next } = listRows(md);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual({ name: 'A GmbH', url: 'https://r.test/a', description: 'About a' });
    expect(next).toBe('https://r.test/page-2');
    expect(listRows('Some [link](https://x.test) in prose.').rows).toEqual([]);
  });
  it('compares name forms without legal suffixes', () =>
    expect(entityKey('Kraftwerk Robotics GmbH')).toBe(entityKey('Kraftwerk  Robotics')));
});
