import * as iconv from 'iconv-lite';
import { decodeBody, parseContentType } from './decode-body';

describe('parseContentType', () => {
  it.each([
    ['text/HTML; charset="Shift_JIS"', 'text/html', 'Shift_JIS'],
    ['application/json', 'application/json', undefined],
    ['text/plain;format=flowed; CHARSET=utf-8', 'text/plain', 'utf-8'],
    [undefined, '', undefined],
  ])('%s', (header, mediaType, charset) => expect(parseContentType(header)).toEqual({ mediaType, charset }));
});

describe('decodeBody', () => {
  it('prefers BOM, then header, then the document, then UTF-8', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é')]);
    expect(decodeBody(bom, 'text/html', 'windows-1252')).toEqual({ charset: 'utf-8', text: 'é' });
    const meta = iconv.encode('<meta charset="windows-1252">é', 'windows-1252');
    expect(decodeBody(meta, 'text/html', 'utf-8').charset).toBe('utf-8');
    expect(decodeBody(meta, 'text/html').text).toBe('<meta charset="windows-1252">é');
    expect(decodeBody(Buffer.from('é'), 'text/html').charset).toBe('utf-8');
  });

  it('reads the XML declaration for XML types only', () => {
    const xml = iconv.encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>', 'latin1');
    expect(decodeBody(xml, 'application/xml')).toEqual({
      charset: 'windows-1252',
      text: '<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>',
    });
    expect(decodeBody(xml, 'text/plain').charset).toBe('utf-8');
  });

  it('ignores a meta charset past the first 4 KiB and unknown labels', () => {
    const late = Buffer.concat([Buffer.alloc(4096, ' '), Buffer.from('<meta charset="shift_jis">')]);
    expect(decodeBody(late, 'text/html').charset).toBe('utf-8');
    expect(decodeBody(Buffer.from('x'), 'text/html', 'x-no-such-charset').charset).toBe('utf-8');
  });
});
