import 'reflect-metadata';
import { validateSync } from 'class-validator';
import { expectedRepr } from './coercions';
import { IntField, StrField, StrListField } from './fields';
import {
  boolParser,
  dateError,
  floatParser,
  httpUrlParser,
  intParser,
  listParser,
  metadataParser,
  strParser,
} from './parsers';
import { validateModel, type Parser } from './model';

const value = (p: Parser, input: unknown) => {
  const r = p(input, ['x']);
  return r.ok ? r.value : undefined;
};
const errorType = (p: Parser, input: unknown) => {
  const r = p(input, ['x']);
  return r.ok ? undefined : r.errors[0].type;
};

describe('lax scalar parsing (pydantic-core semantics)', () => {
  it.each([
    ['5', 5],
    [' 5 ', 5],
    ['+5', 5],
    ['-5', -5],
    ['05', 5],
    ['5.0', 5],
    ['5.000', 5],
    ['1_000', 1000],
    ['0', 0],
    [true, 1],
    [false, 0],
    [7, 7],
    [7.0, 7],
  ])('int accepts %j as %j', (input, expected) => {
    expect(value(intParser(), input)).toBe(expected);
  });

  it.each([
    ['abc', 'int_parsing'],
    ['', 'int_parsing'],
    ['5.5', 'int_parsing'],
    ['1__0', 'int_parsing'],
    ['_1', 'int_parsing'],
    ['+-1', 'int_parsing'],
    ['0x10', 'int_parsing'],
    ['1e3', 'int_parsing'],
    [5.5, 'int_from_float'],
    [1e20, 'int_parsing_size'],
    [null, 'int_type'],
    [{}, 'int_type'],
  ])('int rejects %j with %s', (input, type) => {
    expect(errorType(intParser(), input)).toBe(type);
  });

  it.each([
    ['1.5', 1.5],
    [' 1e3 ', 1000],
    ['.5', 0.5],
    ['5.', 5],
    ['1_000.5', 1000.5],
    ['-inf', -Infinity],
    [true, 1],
    [3, 3],
  ])('float accepts %j as %j', (input, expected) => {
    expect(value(floatParser(), input)).toBe(expected);
  });

  it.each([
    ['abc', 'float_parsing'],
    ['1e', 'float_parsing'],
    ['', 'float_parsing'],
    [null, 'float_type'],
    [[1], 'float_type'],
  ])('float rejects %j with %s', (input, type) => {
    expect(errorType(floatParser(), input)).toBe(type);
  });

  it.each([
    ['yes', true],
    ['On', true],
    ['1', true],
    ['t', true],
    ['TRUE', true],
    ['y', true],
    [1, true],
    ['no', false],
    ['off', false],
    ['0', false],
    ['f', false],
    ['n', false],
    [0, false],
    [false, false],
  ])('bool accepts %j as %j', (input, expected) => {
    expect(value(boolParser(), input)).toBe(expected);
  });

  it.each([
    ['maybe', 'bool_parsing'],
    ['', 'bool_parsing'],
    [2, 'bool_parsing'],
    [0.5, 'bool_type'],
    [null, 'bool_type'],
  ])('bool rejects %j with %s', (input, type) => {
    expect(errorType(boolParser(), input)).toBe(type);
  });

  it('never turns numbers into strings, and counts code points like Python', () => {
    expect(errorType(strParser(), 5)).toBe('string_type');
    expect(errorType(strParser(), true)).toBe('string_type');
    expect(errorType(strParser({ minLength: 2 }), '😀')).toBe('string_too_short'); // 2 UTF-16 units, 1 code point
    expect(strParser({ maxLength: 1 })('ab', ['s'])).toEqual({
      ok: false,
      errors: [
        {
          type: 'string_too_long',
          loc: ['s'],
          msg: 'String should have at most 1 character',
          input: 'ab',
          ctx: { max_length: 1 },
        },
      ],
    });
  });

  it.each([
    ['yesterday', 'input is too short'],
    ['2024/01/01', 'invalid date separator, expected `-`'],
    ['20x4-01-01', 'invalid character in year'],
    ['2024-1a-01', 'invalid character in month'],
    ['2024-01-0x', 'invalid character in day'],
    ['2024-13-01', 'month value is outside expected range of 1-12'],
    ['2023-02-29', 'day value is outside expected range'],
    ['2024-04-31', 'day value is outside expected range'],
    ['2024-01-01T00:00', 'unexpected extra characters at the end of the input'],
    ['2024-02-29', undefined],
    ['2000-02-29', undefined],
  ])('date %j -> %s (speedate wording)', (input, error) => {
    expect(dateError(input)).toBe(error);
  });

  it.each([
    ['', 'url_parsing', 'input is empty'],
    ['example.com/x', 'url_parsing', 'relative URL without a base'],
    ['http://', 'url_parsing', 'empty host'],
    ['http://exa mple.com', 'url_parsing', 'invalid domain character'],
    ['http://example.com:99999', 'url_parsing', 'invalid port number'],
    ['http://[::1', 'url_parsing', 'invalid IPv6 address'],
    ['http://1.2.3.456', 'url_parsing', 'invalid IPv4 address'],
    ['mailto:a@b.c', 'url_scheme', undefined],
    ['https://' + 'a'.repeat(2100) + '.com', 'url_too_long', undefined],
    [42, 'url_type', undefined],
  ])('url %j -> %s %s', (input, type, error) => {
    const r = httpUrlParser()(input, ['u']);
    expect(r.ok ? undefined : [r.errors[0].type, r.errors[0].ctx?.error]).toEqual([type, error]);
  });

  it('renders enum members like Python repr', () => {
    expect(expectedRepr(['a'])).toBe("'a'");
    expect(expectedRepr(['a', 'b'])).toBe("'a' or 'b'");
    expect(expectedRepr(["it's", 'x'])).toBe(`"it's" or 'x'`);
  });
});

describe('lists', () => {
  const list = listParser(strParser({ minLength: 1 }), { minItems: 2, maxItems: 3 });

  it('checks min length only once every item is valid', () => {
    expect(list(['', 1], ['l'])).toMatchObject({ ok: false, errors: [{ loc: ['l', 0] }, { loc: ['l', 1] }] });
    expect(list([], ['l'])).toMatchObject({ ok: false, errors: [{ type: 'too_short' }] });
  });

  it('lets too_long replace item errors', () => {
    expect(list([1, 2, 3, 4], ['l'])).toMatchObject({
      ok: false,
      errors: [{ type: 'too_long', ctx: { actual_length: 4 } }],
    });
  });

  it('rejects strings and dicts as lists', () => {
    expect(errorType(list, 'ab')).toBe('list_type');
    expect(errorType(list, { 0: 'a' })).toBe('list_type');
  });
});

describe('models', () => {
  class Base {
    @StrField() a!: string;
    @IntField() b!: number;
  }
  class Child extends Base {
    @IntField({ default: 1 }) c!: number;
    // keeps its parent's position; TS wants an initializer to redeclare a field (the engine never runs it)
    @StrField({ minLength: 3 }) override a = '';
    @StrListField({ default: [] }) tags!: string[];
  }

  it('validates inherited fields first, an override in its parent position', () => {
    const r = validateModel(Child, { a: 'x', b: 'y', c: 'z' }, ['body']);
    expect(r.ok ? [] : r.errors.map((e) => [e.type, e.loc])).toEqual([
      ['string_too_short', ['body', 'a']],
      ['int_parsing', ['body', 'b']],
      ['int_parsing', ['body', 'c']],
    ]);
    expect(validateModel(Base, { a: 'abc' }, ['body'])).toMatchObject({
      ok: false,
      errors: [{ type: 'missing', loc: ['body', 'b'] }],
    });
  });

  it('gives every instance its own copy of a mutable default', () => {
    const one = validateModel(Child, { a: 'abc', b: 1 }, []);
    const two = validateModel(Child, { a: 'abc', b: 1 }, []);
    if (!one.ok || !two.ok) throw new Error('expected valid');
    expect((one.value as Child).tags).toEqual([]);
    expect((one.value as Child).tags).not.toBe((two.value as Child).tags);
  });

  it('reports missing fields with input null when validating parameters one by one', () => {
    expect(validateModel(Base, { a: 'x' }, ['query'], true)).toMatchObject({
      errors: [{ type: 'missing', input: null }],
    });
  });

  it('also registers each field as a class-validator constraint with the pydantic message', () => {
    const dto = Object.assign(new Child(), { a: 'ab', b: 2.5 });
    const messages = validateSync(dto).map((e) => [e.property, Object.values(e.constraints ?? {})[0]]);
    expect(messages).toEqual([
      ['a', 'String should have at least 3 characters'],
      ['b', 'Input should be a valid integer, got a number with a fractional part'],
    ]);
  });
});

describe('metadataParser', () => {
  const parse = metadataParser();

  it('refuses a key holding a control character at any depth, naming where it is', () => {
    expect(parse({ 'a\u0000b': 1 }, ['body', 'metadata'])).toMatchObject({
      ok: false,
      errors: [{ type: 'value_error', loc: ['body', 'metadata', 'a\u0000b'] }],
    });
    expect(parse({ outer: [{ 'x\u007f': 1 }] }, ['body', 'metadata'])).toMatchObject({
      ok: false,
      errors: [{ loc: ['body', 'metadata', 'outer', 0, 'x\u007f'] }],
    });
  });

  it('passes ordinary metadata through, and values may hold anything', () => {
    expect(parse({ ticket: 'T-1', 'a.b': { $c: 'line\nbreak\u0000' } }, ['body', 'metadata'])).toEqual({
      ok: true,
      value: { ticket: 'T-1', 'a.b': { $c: 'line\nbreak\u0000' } },
    });
  });

  it('walks metadata nested deeper than the stack', () => {
    let deep: Record<string, unknown> = { 'bad\u0001': 1 };
    for (let i = 0; i < 50_000; i++) deep = { d: deep };
    const result = parse(deep, ['body', 'metadata']);
    expect(result.ok).toBe(false);
  });
});
