import { valueKind } from './value-patterns';

describe('valueKind', () => {
  it.each([
    ['founded_year', { type: 'integer' }, 'year'],
    ['employees', { type: 'integer', description: 'Number of employees' }, 'number'],
    ['revenue', { type: 'string', description: 'Revenue for the last fiscal year' }, 'money'],
    ['growth', { type: 'number', description: 'growth in percent' }, 'percent'],
    ['ceo', { type: 'string' }, 'person'],
    ['headquarters', { type: 'string', description: 'City where the company is headquartered' }, 'place'],
    ['university', { type: 'string', description: 'University where she studied' }, 'organisation'],
    ['launch_date', { type: 'string', format: 'date' }, 'date'],
    ['listed', { type: 'boolean' }, 'boolean'],
    ['slogan', { type: 'string' }, 'text'],
  ])('%s %j asks for a %s', (name, schema, kind) => expect(valueKind(name, schema)).toBe(kind));
});
