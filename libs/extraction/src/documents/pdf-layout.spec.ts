import { bodySize, linesOf, pageHtml, type TextRun } from './pdf-layout';
import { pageAt, pdfDate } from './pdf';
import { checkZipBounds } from './zip-bounds';

const run = (str: string, x: number, y: number, size = 10): TextRun => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width: str.length * size * 0.5,
});

describe('PDF layout', () => {
  it('groups runs sharing a baseline into lines, top to bottom and left to right, and splits cells at wide gaps', () => {
    const lines = linesOf([
      run('world', 60, 700.5),
      run('hello', 30, 700),
      run('Below', 30, 680),
      run('far', 300, 680),
    ]);
    expect(lines.map((l) => l.cells.map((c) => c.text))).toEqual([['hello world'], ['Below', 'far']]);
  });

  it("tells headings from paragraphs by size, joins a paragraph's lines, and keeps rows of equal cell counts as a table", () => {
    const lines = linesOf([
      run('Results', 30, 760, 20),
      run('The first line of a paragraph', 30, 730),
      run('and its second line.', 30, 718),
      run('Year', 30, 690),
      run('Count', 200, 690),
      run('2023', 30, 676),
      run('12', 200, 676),
      run('A closing paragraph.', 30, 640),
    ]);
    const html = pageHtml(lines, bodySize([lines]));
    expect(html).toBe(
      [
        '<h2>Results</h2>',
        '<p>The first line of a paragraph and its second line.</p>',
        '<table><thead><tr><th>Year</th><th>Count</th></tr></thead><tbody><tr><td>2023</td><td>12</td></tr></tbody></table>',
        '<p>A closing paragraph.</p>',
      ].join('\n'),
    );
  });

  it('escapes the text it writes as HTML', () => {
    expect(pageHtml(linesOf([run('a <b> & c', 30, 700)]), 10)).toBe('<p>a &lt;b&gt; &amp; c</p>');
  });

  it('reads PDF dates and finds the page of an offset', () => {
    expect(pdfDate("D:20240305100000Z00'00'")).toBe('2024-03-05');
    expect(pdfDate('D:2019')).toBe('2019-01-01');
    expect(pdfDate('yesterday')).toBeNull();
    expect(pdfDate('D:20241399')).toBeNull();
    expect([0, 5, 99, 100, 250].map((offset) => pageAt([0, 100, 200], offset))).toEqual([1, 1, 1, 2, 3]);
  });
});

describe('checkZipBounds', () => {
  const zip = (entries: Array<{ size: number }>) => {
    const name = Buffer.from('word/document.xml');
    const central = entries.flatMap(({ size }) => {
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt32LE(size, 24);
      entry.writeUInt16LE(name.length, 28);
      return [entry, name];
    });
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(0, 16);
    return new Uint8Array(Buffer.concat([directory, end]));
  };

  it('passes a zip within bounds and refuses one that declares too much, too many entries, or no directory', () => {
    expect(() => checkZipBounds(zip([{ size: 1_000 }, { size: 20_000 }]))).not.toThrow();
    expect(() => checkZipBounds(zip([{ size: 40 * 1024 * 1024 }, { size: 40 * 1024 * 1024 }]))).toThrow(
      'the Word document inflates to more than 64 MB',
    );
    expect(() => checkZipBounds(zip(Array.from({ length: 2_001 }, () => ({ size: 1 }))))).toThrow(
      'the Word document holds 2001 files, more than the 2000 allowed',
    );
    expect(() => checkZipBounds(new Uint8Array(Buffer.from('PK not really a zip')))).toThrow(/no zip directory/);
  });
});
