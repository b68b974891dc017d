import { tokenize } from '@app/text';
import { candidatesIn, shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('shortAnswer', () => {
  it('which of two born first: the earlier year on each one’s own page', () => {
    const answer = shortAnswer('Who was born first, Ada Fenwick or Bruno Castellan?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 4 May 1948) is an English novelist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan (1902 – 1993) was an Italian painter.'),
    ]);
    expect(answer).toMatchObject({ value: 'Bruno Castellan', confidence: 'high', source: 2 });
  });

  it('which of two by words: what each option’s sentences say together, not the words describing one of them', () => {
    // ", the 1970 concert documentary" only says which film is meant: it matches that film's own page.
    const answer = shortAnswer(
      'Which film was Oscar nominated, Harrow Kin: The Legacy of Flax or Night Shelter, the 1970 concert documentary?',
      [
        page(
          1,
          'Night Shelter (1970 film)',
          'Night Shelter is a 1970 concert documentary film directed by Alma Reyes.',
        ),
        page(
          2,
          'Harrow Kin: The Legacy of Flax',
          'Harrow Kin: The Legacy of Flax is a 2001 American documentary film. It was nominated for Best Documentary Feature at the 74th Academy Awards.',
        ),
      ],
    );
    expect(answer).toMatchObject({ value: 'Harrow Kin: The Legacy of Flax', confidence: 'low', source: 2 });
  });

  it('which of two has more: the number next to the question’s noun', () => {
    const answer = shortAnswer('Which building has more floors, Harbour House or 12 Quay Street?', [
      page(1, 'Harbour House', 'Harbour House is an office tower with 31 floors, finished in 1988.'),
      page(2, '12 Quay Street', '12 Quay Street is a residential tower with 54 floors.'),
    ]);
    expect(answer?.value).toBe('12 Quay Street');
    // Each option's own page counts the noun asked: as sure as the pages.
    expect(answer?.confidence).toBe('high');
    const unsure = shortAnswer('Which building has more floors, Harbour House or 12 Quay Street?', [
      page(1, 'Harbour House', 'Harbour House is an office tower with 31 floors, finished in 1988.'),
      page(2, 'Quay Street', '12 Quay Street is a residential tower with 54 floors.'),
    ]);
    expect(unsure).toMatchObject({ value: '12 Quay Street', confidence: 'medium' });
  });

  it('yes when both named pages open by saying what the question asks', () => {
    const passages = [
      page(1, 'Marsh Terrier', 'The Marsh Terrier is a breed of dog from Norfolk. It hunts otters.'),
      page(2, 'Hill Laika', 'The Hill Laika is a hunting dog breed of the Urals.'),
    ];
    expect(shortAnswer('Are both the Marsh Terrier and the Hill Laika dog breeds?', passages)).toMatchObject({
      value: 'yes',
    });
    expect(shortAnswer('Are both the Marsh Terrier and the Hill Laika American universities?', passages)).toBeNull();
  });

  it('a person next to the question’s own words, not one the question already names', () => {
    const answer = shortAnswer('Who directed the film in which Tom Adler had a supporting role?', [
      page(1, 'Tom Adler', 'Tom Adler is an actor. He had a supporting role in the film Night Harbour.'),
      page(
        2,
        'Night Harbour',
        'Night Harbour is a 2003 film directed by Maria Keller, starring Tom Adler and Will Smith.',
      ),
    ]);
    expect(answer?.value).toBe('Maria Keller');
  });

  it('no candidate of the asked kind: null, not a value of another kind', () => {
    expect(
      shortAnswer('Who directed the film Night Harbour?', [
        page(1, 'Night Harbour', 'Night Harbour premiered in 2003 at a festival in the north.'),
      ]),
    ).toBeNull();
  });

  it('the name beside the words the question asks about, not the one beside the other side', () => {
    const text =
      'In the final, the coastal champion Harbor City Otters beat the highland champion Lakeside Herons 3–1.';
    expect(shortAnswer('Which club was the coastal champion?', [page(1, 'Cup final', text)])?.value).toBe(
      'Harbor City Otters',
    );
    expect(shortAnswer('Which club was the highland champion?', [page(1, 'Cup final', text)])?.value).toBe(
      'Lakeside Herons',
    );
  });

  it('"who" is answered by a team or a company as well as by a person', () => {
    const answer = shortAnswer('Who did the Otters beat in the divisional round?', [
      page(1, 'Season', 'The Otters beat the Corran Harriers in the divisional round, 23–16, after a late field goal.'),
    ]);
    expect(answer?.value).toBe('Corran Harriers');
  });

  it('a name written with an initial and no tag compromise knows is still a name', () => {
    const answer = shortAnswer('Which director made the film in which Ada Quill played Tyler?', [
      page(
        1,
        'Ada Quill',
        'Ada Quill played Tyler in the thriller "The Lantern", written and directed by J. Marlowe Pinter.',
      ),
    ]);
    expect(answer?.value).toBe('J. Marlowe Pinter');
  });

  it('no nationality, and no name in another script than the question, is an answer', () => {
    const answer = shortAnswer('Where does the band Glass Harbour come from?', [
      page(
        1,
        'Glass Harbour',
        'Glass Harbour (Стеклянная гавань) is a Canadian band formed in Thornfield, Ontario, in 1998.',
      ),
    ]);
    expect(answer?.value).toBe('Thornfield, Ontario');
  });

  it('"which actor" is no title the sentence quotes', () => {
    const question =
      'Which actor, who also appeared in "The Long Pier" (1995), does the 2017 comedy Night Driver star?';
    const found = candidatesIn(
      'person',
      'He won an award for the thriller "The Long Pier" (1995), and another for the drama "Silver Morning" (1999).',
      new Set(tokenize(question)),
      question,
      'actor',
    );
    expect(found.find((c) => c.text === 'Silver Morning')?.fit).toBe(0.5);
  });

  it('"which player" is a person, not the team compromise reads beside the question’s words', () => {
    const answer = shortAnswer('Which player did the Otters lose to an ACL injury in a preseason game?', [
      page(
        1,
        'Harbor Otters',
        'Despite waiving running back Lee Dunmore and losing top wide receiver Ken Marlow to a torn ACL in the preseason, the Harbor Otters had their best season.',
      ),
    ]);
    expect(answer?.value).toBe('Ken Marlow');
  });

  it('"which <series>" is one of the series, told apart by a year or a numeral', () => {
    const answer = shortAnswer(
      'Which Harbour Cup was famous for a disputed final between Norland and Estmark, where the referee was from Wales?',
      [
        page(
          1,
          'Ivo Brant (referee)',
          'Ivo Brant is a referee from Wales. He is known for two matches in the 1978 Harbour Cup in Ostia: the infamous "Long Whistle" between Norland and Estmark, and the final.',
        ),
      ],
    );
    expect(answer?.value).toBe('1978 Harbour Cup');
    const numeral = shortAnswer('Which Harbour Cup did Ivo Brant referee at 38 years old?', [
      page(
        1,
        'Ivo Brant (referee)',
        'At 38 years old, Ivo Brant refereed Harbour Cup XXXIII, the oldest referee of a final, and later served as General Manager.',
      ),
    ]);
    expect(numeral?.value).toBe('Harbour Cup XXXIII');
  });

  it('a name a page’s opening gives its subject among others is answered by the page’s own name', () => {
    const answer = shortAnswer(
      'Lagoa Park is located in which area of Brazil comprising the states Acre and Rondônia?',
      [
        page(
          1,
          'Amazonia, Brazil',
          'La Amazonia or Região Amazônica is the humid area of north-west Brazil, comprising the states Acre and Rondônia.',
        ),
        page(2, 'Lagoa Park', 'Lagoa Park is a national park in Brazil.'),
      ],
    );
    expect(answer?.value).toBe('Amazonia');
  });

  it('a name the pages of both things the question names state is what links them', () => {
    const answer = shortAnswer(
      'Which actor, who also appeared in "Lantern Hill" (1995), does the 2017 action crime comedy Marrow Road star?',
      [
        page(
          1,
          'Marrow Road',
          'Marrow Road is a 2017 action crime comedy film written and directed by Edwin Marsh. It stars Anton Elgar, Kevin Spade, Lily Jarvis, Jon Hale, and Jamie Foss.',
        ),
        page(
          2,
          'Lantern Hill',
          'Lantern Hill is a 1995 American mystery film directed by Bryan Sayer and written by Chris McQuade. It stars Stephen Bold, Gabriel Brenn, Kevin Pollard, and Kevin Spade.',
        ),
        page(3, 'Edwin Marsh', 'Edwin Marsh is an English director, screenwriter and actor.'),
        page(4, 'Kevin Spade', 'Kevin Spade is an American actor, producer and singer.'),
      ],
    );
    expect(answer?.value).toBe('Kevin Spade');
  });

  it('a place one of a list is answered alone, not with the next one as its region', () => {
    const answer = shortAnswer('Where has Dora Keel’s column appeared that draws 9 million readers a month?', [
      page(
        1,
        'Dora Keel',
        'Dora Keel’s column has appeared in The Daily Lark, Kestrel Monthly, Quill Weekly, Salon and other media.',
      ),
      page(
        2,
        'Kestrel Monthly',
        'Kestrel Monthly is a magazine that draws 9 million readers a month, based in Boston.',
      ),
    ]);
    expect(answer?.value).toBe('Kestrel Monthly');
  });

  it('"who" splits "X of Y" into the person and the band', () => {
    const answer = shortAnswer('Which Canadian singer produced the song with the cast?', [
      page(
        1,
        'Cast album',
        'The song was produced with the cast by Jay Marlin of Rascal Town, a Canadian singer, in 2014.',
      ),
    ]);
    expect(answer?.value).toBe('Jay Marlin');
  });

  it('which of two by a count: the count written in words, not a number inside a name', () => {
    const answer = shortAnswer('Which tower will have more floors, 21 Quay Street, or Harrow Point?', [
      page(
        1,
        '21 Quay Street',
        '21 Quay Street is a proposed 54-storey tower in Leeds. It would have 54 floors and 310 flats, just 12 m shorter than Vale House, which has 80 floors.',
      ),
      page(2, 'Harrow Point', 'Harrow Point is a sixty two floor residential tower under construction in Cardiff.'),
    ]);
    expect(answer?.value).toBe('Harrow Point');
  });
});
