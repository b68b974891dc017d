/**
 * LocalIndex ranking priors: descriptions, site names, loose matches of misspelt words, pages the
 * best result names, and a company's own pages.
 */
import { LocalIndex } from './local-index';
import { doc, NOW } from './testing/local-index-fixtures';

describe('LocalIndex ranking priors', () => {
  const firms = [
    'Alderwick Bakeries',
    'Brantholm Brewing',
    'Cindervale Coffee',
    'Dunmere Dairy',
    'Elsworth Ales',
    'Fennick Foods',
    'Galloway Grains',
    'Harrowgate Honey',
    'Istbrook Ices',
    'Jarvell Jams',
    'Kelmscott Kitchens',
    'Larchfield Loaves',
    'Merrivale Mills',
    'Norbrook Noodles',
    'Oakhurst Oils',
    'Pendle Pies',
  ];
  const index = () => {
    const i = new LocalIndex({ now: () => NOW });
    // A directory: one line per firm, every line a description, the rye bakery's among them.
    i.upsert(
      doc('https://directory.example/food-makers', {
        title: 'Directory of food makers',
        text: firms.map((f, n) => (n === 0 ? `${f}: organic rye bakery in Tartu, founded 1997.` : `${f}.`)).join('\n'),
      }),
    );
    i.upsert(
      doc('https://alderwick-bakeries.example/', {
        title: 'Alderwick Bakeries',
        text: 'Alderwick Bakeries bakes rye bread in Tartu, in ovens lit every morning since 1997. We deliver to shops and cafés across Estonia six days a week.',
      }),
    );
    i.upsert(
      doc('https://alderwick-bakeries.example/about', {
        title: 'About Alderwick Bakeries',
        text: 'About Alderwick Bakeries: the bakery story, the bakery people, the bakery values. Alderwick Bakeries, Alderwick Bakeries, Alderwick Bakeries.',
      }),
    );
    i.upsert(
      doc('https://news.example/rye', { title: 'Rye is back', text: 'Rye bread sales are rising across Estonia.' }),
    );
    return i;
  };
  const urls = (i: LocalIndex, query: string) => i.search({ query }).hits.map((h) => h.url);

  it('a description ranks the page of the entity it describes above a listing that describes many', () => {
    expect(urls(index(), 'organic rye bakery in Tartu founded 1997')[0]).toBe('https://alderwick-bakeries.example/');
  });

  it("a site's name puts its home page first, also with one typo", () => {
    expect(urls(index(), 'Alderwick Bakeries')[0]).toBe('https://alderwick-bakeries.example/');
    expect(urls(index(), 'Alderwik Bakeries')[0]).toBe('https://alderwick-bakeries.example/');
  });

  it('matches a misspelt rare word loosely only when no page has it as written', () => {
    const i = index();
    expect(urls(i, 'rye sales Estonia')[0]).toBe('https://news.example/rye');
    expect(urls(i, 'Estonai')).toContain('https://news.example/rye');
  });

  it('a page the best result names by its title rises above pages that merely share a word with the query', () => {
    const i = new LocalIndex({ now: () => NOW });
    const wiki = (title: string, text: string) =>
      doc(`https://en.wikipedia.example/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`, { title, text });
    i.upsert(
      wiki(
        'Christmas with Brightwater',
        'Christmas with Brightwater is an album of Christmas songs recorded by the cast of the series Brightwater. One song was produced with The Corvells.',
      ),
    );
    i.upsert(wiki('The Corvells (duo)', 'The Corvells are a Canadian married duo of singers from Nova Scotia.'));
    // Pages sharing the query's words without being what it is about.
    for (let n = 0; n < 12; n++)
      i.upsert(wiki(`Canadian album ${n}`, `A Canadian album of songs, number ${n}, produced in Halifax.`));
    const top = urls(i, 'Which Canadian produced a song with the cast of Brightwater');
    expect(top.slice(0, 2)).toEqual(
      expect.arrayContaining([
        'https://en.wikipedia.example/wiki/Christmas_with_Brightwater',
        'https://en.wikipedia.example/wiki/The_Corvells_(duo)',
      ]),
    );
  });

  it("a company's name in a query prefers its pages, and among them the one the rest of the query asks for", () => {
    const i = new LocalIndex({ now: () => NOW });
    const site = 'https://acme-robotics.example';
    i.upsert(
      doc(`${site}/`, {
        title: 'Acme Robotics',
        text: 'Acme Robotics builds warehouse robots. News, investors, revenue and results, our leadership team, careers, funding news. Contact Acme Robotics.',
      }),
    );
    i.upsert(
      doc(`${site}/investors/fiscal-2023`, {
        title: 'Annual report, fiscal 2023',
        text: 'Revenue for fiscal 2023 was 48 million dollars, up from 31 million in fiscal 2022.',
      }),
    );
    i.upsert(
      doc(`${site}/team`, {
        title: 'Leadership team',
        text: 'Our chief technology officer, Wen Okafor, leads engineering. Our chief executive is Lia Brandt.',
      }),
    );
    i.upsert(
      doc('https://news.example/acme-seed', {
        title: 'Warehouse robot maker raises seed funding',
        text: 'Acme Robotics raised 4 million dollars in seed funding led by Northgate Ventures.',
      }),
    );
    i.upsert(doc('https://other.example/', { title: 'Other Robotics', text: 'Other robots, revenue and a team.' }));
    expect(urls(i, 'Acme Robotics')[0]).toBe(`${site}/`);
    expect(urls(i, 'Acme Robotics revenue fiscal 2023')[0]).toBe(`${site}/investors/fiscal-2023`);
    expect(urls(i, 'Acme Robotics leadership team chief technology officer')[0]).toBe(`${site}/team`);
    expect(urls(i, 'Acme Robotics seed funding')[0]).toBe('https://news.example/acme-seed');
    // A misspelt name does the same.
    expect(urls(i, 'Acme Robotcs revenue fiscal 2023')[0]).toBe(`${site}/investors/fiscal-2023`);
  });
});
