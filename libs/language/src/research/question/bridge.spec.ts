import { bridgeNames } from './bridge';

const page = (source: number, title: string, text: string) => ({
  source,
  url: `https://wiki.example/${source}`,
  title,
  text,
});

describe('bridgeNames', () => {
  const question =
    'A Japanese comic series about a high school student Kaito Mori, is written and illustrated by someone born in what year?';
  const series = page(
    1,
    'Blue Hour (comic)',
    'Blue Hour is a Japanese comic series written and illustrated by Haruki Sanno. The story follows high school student Kaito Mori, who is in love with his classmate Emi Tachibana.',
  );

  it('names the thing the clause that asks describes, from the sentence holding its words', () => {
    // "Emi Tachibana" stands in the sentence sharing more of the question's words; the asking
    // clause ("is written and illustrated by someone born in what year") leads to the author.
    expect(bridgeNames(question, [series], 1)).toEqual([
      {
        name: 'Haruki Sanno',
        source: 1,
        quote: 'Blue Hour is a Japanese comic series written and illustrated by Haruki Sanno.',
      },
    ]);
    expect(bridgeNames(question, [series], 2).map((b) => b.name)).toEqual(['Haruki Sanno', 'Emi Tachibana']);
  });

  it('follows no name a page read is about, none the question writes, no date and no nationality', () => {
    const read = page(2, 'Haruki Sanno', 'Haruki Sanno (born 3 May 1962) is a Japanese comic artist.');
    expect(bridgeNames(question, [series, read], 3).map((b) => b.name)).toEqual(['Emi Tachibana']);
  });

  it('follows the name beside what the question says of the thing it names, not beside that thing’s name', () => {
    // The first sentence holds "Tom Whitby" and "football"; the third says where he played college football.
    const player = page(
      6,
      'Tom Whitby (American football)',
      'Tom Whitby (October 3, 1937 – October 9, 2011) was an American football running back in the National Football League. He was drafted by the Lisle Hawks in 1960. He played college football at Kestrel State.',
    );
    expect(
      bridgeNames(
        'Tom Whitby played college football for a team that plays its home games at what stadium?',
        [player],
        1,
      ).map((b) => b.name),
    ).toEqual(['Kestrel State']);
  });

  it('follows first from the own page of a thing the question names', () => {
    const film = page(
      7,
      'Low Tide (film)',
      'Low Tide is a 2014 American drama romantic comedy film written and directed by Ana Varga.',
    );
    const other = page(
      8,
      'Harbour Nights',
      'This romantic comedy film premiered at Port Kessa and Varden City on December 1, 2006.',
    );
    expect(
      bridgeNames('The director of the romantic comedy "Low Tide" is based in what Varden city?', [other, film], 1).map(
        (b) => b.name,
      ),
    ).toEqual(['Ana Varga']);
  });

  it('follows no run of capitals longer than a name, and reads no sentence longer than the short path does', () => {
    // A hostile page: a run of 5,000 capitalised words beside the question's names would be a search of its own.
    const capitals = 'Zed '.repeat(5_000).trim();
    const hostile = page(
      4,
      'Blue Hour (comic)',
      `Blue Hour is a Japanese comic series written and illustrated by ${capitals}. It follows Kaito Mori.`,
    );
    expect(bridgeNames(question, [hostile], 3)).toEqual([]);
    const long = page(
      5,
      'Blue Hour (comic)',
      `Blue Hour is a Japanese comic series about Kaito Mori, written and illustrated by Haruki Sanno${', and then more'.repeat(100)}.`,
    );
    expect(bridgeNames(question, [long], 3)).toEqual([]);
  });

  it('follows nothing for which-of-two or yes/no, and nothing from a page that names nothing the question names', () => {
    expect(bridgeNames('Who was born first, Haruki Sanno or Emi Tachibana?', [series], 2)).toEqual([]);
    expect(bridgeNames('Are Blue Hour and Red Dawn both comic series?', [series], 2)).toEqual([]);
    const other = page(
      3,
      'Red Dawn (comic)',
      'Red Dawn is a Japanese comic series written and illustrated by Sora Ikeda, born in 1970.',
    );
    expect(bridgeNames(question, [other], 2)).toEqual([]);
  });
});
