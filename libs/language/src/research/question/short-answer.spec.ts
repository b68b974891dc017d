import { analyseShortQuestion, shortAnswer } from './short-answer';

const page = (source: number, title: string, text: string) => ({ source, url: `https://wiki.example/${source}`, title, text });

describe('analyseShortQuestion', () => {
  it.each([
    ['Who was born first, Ada Fenwick or Bruno Castellan?', 'choice'],
    ['Which mountain is higher: Mount Arden or The Spire', 'choice'],
    ['Are both the Marsh Terrier and the Hill Laika dog breeds?', 'yesno'],
    ['In what year was the bridge opened?', 'year'],
    ['How many floors does the tower have?', 'number'],
    ['When did the strike end?', 'date'],
    ['Where does the club play its home games?', 'place'],
    ['Which English midfielder scored the goal?', 'person'],
    ['What Canadian produced the song?', 'person'],
    ['What company does the producer run?', 'organisation'],
    ['Who directed the film?', 'person'],
    ['What type of products did she design?', 'thing'],
    ['The final decided the champion of what season?', 'year'],
    ["What was Ada Fenwick's batting average in her last season?", 'number'],
    ['What is the best league ranking the club has held?', 'number'],
  ])('%s -> %s', (question, kind) => {
    expect(analyseShortQuestion(question)?.kind).toBe(kind);
  });

  it('an open prompt asks for no short answer', () => {
    expect(analyseShortQuestion('Solid-state battery makers and their funding')).toBeNull();
  });
});

describe('shortAnswer', () => {
  it('which of two born first: the earlier year on each one’s own page', () => {
    const answer = shortAnswer('Who was born first, Ada Fenwick or Bruno Castellan?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 4 May 1948) is an English novelist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan (1902 – 1993) was an Italian painter.'),
    ]);
    expect(answer).toMatchObject({ value: 'Bruno Castellan', confidence: 'high', source: 2 });
  });

  it('which of two has more: the number next to the question’s noun', () => {
    const answer = shortAnswer('Which building has more floors, Harbour House or 12 Quay Street?', [
      page(1, 'Harbour House', 'Harbour House is an office tower with 31 floors, finished in 1988.'),
      page(2, '12 Quay Street', '12 Quay Street is a residential tower with 54 floors.'),
    ]);
    expect(answer?.value).toBe('12 Quay Street');
  });

  it('yes when both named pages open by saying what the question asks', () => {
    const passages = [
      page(1, 'Marsh Terrier', 'The Marsh Terrier is a breed of dog from Norfolk. It hunts otters.'),
      page(2, 'Hill Laika', 'The Hill Laika is a hunting dog breed of the Urals.'),
    ];
    expect(shortAnswer('Are both the Marsh Terrier and the Hill Laika dog breeds?', passages)).toMatchObject({ value: 'yes' });
    expect(shortAnswer('Are both the Marsh Terrier and the Hill Laika American universities?', passages)).toBeNull();
  });

  it('a person next to the question’s own words, not one the question already names', () => {
    const answer = shortAnswer('Who directed the film in which Tom Adler had a supporting role?', [
      page(1, 'Tom Adler', 'Tom Adler is an actor. He had a supporting role in the film Night Harbour.'),
      page(2, 'Night Harbour', 'Night Harbour is a 2003 film directed by Maria Keller, starring Tom Adler and Will Smith.'),
    ]);
    expect(answer?.value).toBe('Maria Keller');
  });

  it('no candidate of the asked kind: null, not a value of another kind', () => {
    expect(shortAnswer('Who directed the film Night Harbour?', [page(1, 'Night Harbour', 'Night Harbour premiered in 2003 at a festival in the north.')])).toBeNull();
  });

  it('the name beside the words the question asks about, not the one beside the other side', () => {
    const text = 'In the final, the coastal champion Harbor City Otters beat the highland champion Lakeside Herons 3–1.';
    expect(shortAnswer('Which club was the coastal champion?', [page(1, 'Cup final', text)])?.value).toBe('Harbor City Otters');
    expect(shortAnswer('Which club was the highland champion?', [page(1, 'Cup final', text)])?.value).toBe('Lakeside Herons');
  });

  it('"who" is answered by a team or a company as well as by a person', () => {
    const answer = shortAnswer('Who did the Broncos beat in the divisional round?', [
      page(1, 'Season', 'The Broncos beat the Pittsburgh Steelers in the divisional round, 23–16, after a late field goal.'),
    ]);
    expect(answer?.value).toBe('Pittsburgh Steelers');
  });

  it('a name written with an initial and no tag compromise knows is still a name', () => {
    const answer = shortAnswer('Which director made the film in which Ada Quill played Tyler?', [
      page(1, 'Ada Quill', 'Ada Quill played Tyler in the thriller "The Lantern", written and directed by J. Marlowe Pinter.'),
    ]);
    expect(answer?.value).toBe('J. Marlowe Pinter');
  });

  it('no nationality, and no name in another script than the question, is an answer', () => {
    const answer = shortAnswer('Where does the band Glass Harbour come from?', [
      page(1, 'Glass Harbour', 'Glass Harbour (Стеклянная гавань) is a Canadian band formed in Thornfield, Ontario, in 1998.'),
    ]);
    expect(answer?.value).toBe('Thornfield');
  });

  it('"who" splits "X of Y" into the person and the band', () => {
    const answer = shortAnswer('Which Canadian singer produced the song with the cast?', [
      page(1, 'Cast album', 'The song was produced with the cast by Jay Marlin of Rascal Town, a Canadian singer, in 2014.'),
    ]);
    expect(answer?.value).toBe('Jay Marlin');
  });

  it('which of two by a count: the count written in words, not a number inside a name', () => {
    const answer = shortAnswer('Which tower will have more floors, 21 Quay Street, or Harrow Point?', [
      page(1, '21 Quay Street', '21 Quay Street is a proposed 54-storey tower in Leeds. It would have 54 floors and 310 flats, just 12 m shorter than Vale House, which has 80 floors.'),
      page(2, 'Harrow Point', 'Harrow Point is a sixty two floor residential tower under construction in Cardiff.'),
    ]);
    expect(answer?.value).toBe('Harrow Point');
  });
});

