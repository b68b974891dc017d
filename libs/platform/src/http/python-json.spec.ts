import { pythonJsonError } from './python-json';

// Cases (document, msg, pos) copied from CPython 3.13 Lib/test/test_json/test_fail.py, which runs them
// against both the C and the pure-Python scanner.
const CPYTHON: Array<[string, string, number]> = [
  // test_truncated_input
  ['', 'Expecting value', 0],
  ['[', 'Expecting value', 1],
  ['[42', "Expecting ',' delimiter", 3],
  ['[42,', 'Expecting value', 4],
  ['["', 'Unterminated string starting at', 1],
  ['["spam', 'Unterminated string starting at', 1],
  ['["spam"', "Expecting ',' delimiter", 7],
  ['["spam",', 'Expecting value', 8],
  ['{', 'Expecting property name enclosed in double quotes', 1],
  ['{"', 'Unterminated string starting at', 1],
  ['{"spam', 'Unterminated string starting at', 1],
  ['{"spam"', "Expecting ':' delimiter", 7],
  ['{"spam":', 'Expecting value', 8],
  ['{"spam":42', "Expecting ',' delimiter", 10],
  ['{"spam":42,', 'Expecting property name enclosed in double quotes', 11],
  ['"', 'Unterminated string starting at', 0],
  ['"spam', 'Unterminated string starting at', 0],
  // test_unexpected_data
  ['[,', 'Expecting value', 1],
  ['{"spam":[}', 'Expecting value', 9],
  ['[42:', "Expecting ',' delimiter", 3],
  ['[42 "spam"', "Expecting ',' delimiter", 4],
  ['[42,]', 'Illegal trailing comma before end of array', 3],
  ['{"spam":[42}', "Expecting ',' delimiter", 11],
  ['["]', 'Unterminated string starting at', 1],
  ['["spam":', "Expecting ',' delimiter", 7],
  ['["spam",]', 'Illegal trailing comma before end of array', 7],
  ['{:', 'Expecting property name enclosed in double quotes', 1],
  ['{,', 'Expecting property name enclosed in double quotes', 1],
  ['{42', 'Expecting property name enclosed in double quotes', 1],
  ['[{]', 'Expecting property name enclosed in double quotes', 2],
  ['{"spam",', "Expecting ':' delimiter", 7],
  ['{"spam"}', "Expecting ':' delimiter", 7],
  ['[{"spam"]', "Expecting ':' delimiter", 8],
  ['{"spam":}', 'Expecting value', 8],
  ['[{"spam":]', 'Expecting value', 9],
  ['{"spam":42 "ham"', "Expecting ',' delimiter", 11],
  ['[{"spam":42]', "Expecting ',' delimiter", 11],
  ['{"spam":42,}', 'Illegal trailing comma before end of object', 10],
  ['{"spam":42 , }', 'Illegal trailing comma before end of object', 11],
  ['[123  , ]', 'Illegal trailing comma before end of array', 6],
  // test_extra_data
  ['[]]', 'Extra data', 2],
  ['{}}', 'Extra data', 2],
  ['[],[]', 'Extra data', 2],
  ['{},{}', 'Extra data', 2],
  ['42,"spam"', 'Extra data', 2],
  ['"spam",42', 'Extra data', 6],
  // test_linecol
  ['!', 'Expecting value', 0],
  [' !', 'Expecting value', 1],
  ['\n!', 'Expecting value', 1],
  ['\n  \n\n     !', 'Expecting value', 10],
];

describe('pythonJsonError', () => {
  it.each(CPYTHON)('%j -> %s at %d (CPython test suite)', (doc, msg, pos) => {
    expect(pythonJsonError(doc)).toEqual({ msg, pos });
  });

  it.each([
    ['{"a":"a\tb"}', 'Invalid control character at', 7],
    ['{"a":"\\q"}', 'Invalid \\escape', 6],
    ['{"a":"\\uZZZZ"}', 'Invalid \\uXXXX escape', 7],
    ['"\\u12"', 'Invalid \\uXXXX escape', 2],
    ['"\\ud834\\uZZZZ"', 'Invalid \\uXXXX escape', 8],
    ['[01]', "Expecting ',' delimiter", 2],
    ['[1.]', "Expecting ',' delimiter", 2],
    ['[1e]', "Expecting ',' delimiter", 2],
    ['-', 'Expecting value', 0],
    ['[-x]', 'Expecting value', 1],
    ['nul', 'Expecting value', 0],
    // Python accepts these constants; JSON.parse does not, and we side with what we can parse
    ['NaN', 'Expecting value', 0],
    ['[-Infinity]', 'Expecting value', 1],
    // positions count code points: the emoji is one
    ['["😀" x]', "Expecting ',' delimiter", 5],
  ])('%j -> %s at %d', (doc, msg, pos) => {
    expect(pythonJsonError(doc)).toEqual({ msg, pos });
  });

  it('uses Python <= 3.12 wording for trailing commas on request', () => {
    expect(pythonJsonError('[42,]', { legacyTrailingComma: true })).toEqual({ msg: 'Expecting value', pos: 4 });
    expect(pythonJsonError('{"spam":42,}', { legacyTrailingComma: true })).toEqual({
      msg: 'Expecting property name enclosed in double quotes',
      pos: 11,
    });
  });

  it('accepts exactly what JSON.parse accepts (mutation fuzz)', () => {
    const seeds = [
      '{"a":[1,-2.5e+3,true,false,null,"x\\n\\u00e9\\ud83d\\ude00"],"b":{}}',
      '[0, 1E2, "\\"", [], {"k": [ ]}]',
      ' "s" ',
    ];
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'e', '-', '0', '1', '.', ' ', 'u', 'n', '\t'];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let mismatches = 0;
    for (let i = 0; i < 5000; i++) {
      let doc = seeds[rand(seeds.length)];
      for (let k = 0; k <= rand(3); k++) {
        const at = rand(doc.length + 1);
        doc = rand(2)
          ? doc.slice(0, at) + alphabet[rand(alphabet.length)] + doc.slice(at)
          : doc.slice(0, at) + doc.slice(at + 1);
      }
      let parses = true;
      try {
        JSON.parse(doc);
      } catch {
        parses = false;
      }
      if (parses !== (pythonJsonError(doc) === undefined)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});
