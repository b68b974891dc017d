/** shortAnswer and its helpers on what a question asks for: the noun and the kind of thing, a count, a position, a colour, a nationality. */
import { analyseShortQuestion, countsAsked, shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('the noun a question asks for', () => {
  it.each([
    ['Tobin Arkwell plays Pell in a film directed by which famous director?', 'director'],
    ['What science fantasy young adult series, told in first person, has companion books?', 'sery'],
    ['What type of products did she design?', 'product'],
    ['Varenna National Park is located in which area of Norland?', 'area'],
    ['What is the name of the fight song of the university?', 'song'],
    // A statement ending in a question asks with its last wh-word that no verb follows.
    ["Ashen Veil is an album by a band formed by what Declan O'Farrell and what other member?", 'member'],
    ['"The Shape of Rain" is a song which appeared in a film based on the novel by which author?', 'author'],
    // compromise tags a lone "war" as a verb.
    ['The battle was the final offensive of the European theatre of what war?', 'war'],
  ])('%s -> %s', (question, noun) => {
    expect(analyseShortQuestion(question)?.noun).toBe(noun);
  });

  it.each([
    ['a name', "Ashen Veil is an album by a band formed by what Declan O'Farrell?"],
    ['a name’s word', 'Which World Cup was famous for match-fixing?'],
    ['a relative "which"', 'Who directed the film in which Corey Vance had a role?'],
  ])('none for %s', (_, question) => {
    expect(analyseShortQuestion(question)?.noun).toBeUndefined();
  });

  it('a candidate the pages describe as that noun wins over one nearer the question’s words', () => {
    const answer = shortAnswer('Which magazine did the horror author Graham Marlowe edit?', [
      page(1, 'Graham Marlowe', 'Graham Marlowe is a horror author who edited Corran House books and later Fenwick.'),
      // Not Fenwick's own page: only the description says what Fenwick is.
      page(2, 'Leeds periodicals', 'Fenwick is a British monthly magazine. It was founded in 1965.'),
      page(3, 'Corran House', 'Corran House is a publisher of books in Leeds.'),
    ]);
    expect(answer?.value).toBe('Fenwick');
  });

  it('a name that ends in the noun is of it; a phrase that ends in it is not', () => {
    const stadium = shortAnswer('The club plays its home games at what stadium?', [
      page(1, 'Harrow Rovers', 'The club plays its home games in Harrow at the Corran Park Stadium, built in 1921.'),
    ]);
    expect(stadium?.value).toBe('Corran Park Stadium');
    const colour = shortAnswer('What colour did the club wear in the final?', [
      page(1, 'Harrow Rovers', 'In the final the club wore white, its primary colour, against the Dons.'),
    ]);
    expect(colour?.value).not.toBe('primary colour');
  });
});

describe('what a "how many" question counts', () => {
  it('is the noun after "how many", found after the number or as its label', () => {
    expect(
      countsAsked(
        'How many solo tackles did Ada Fenwick make?',
        'five',
        'Ada Fenwick recorded five solo tackles and 2½ sacks.',
      ),
    ).toBe(true);
    expect(
      countsAsked(
        'How many solo tackles did Ada Fenwick make?',
        '2½',
        'Ada Fenwick recorded five solo tackles and 2½ sacks.',
      ),
    ).toBe(false);
    expect(countsAsked('How many students does Tamsworth Polytechnic have?', '5,800', 'Students: 5,800')).toBe(true);
    expect(countsAsked('What was the score?', '31–24', 'It ended 31–24.')).toBeUndefined();
  });

  it('weighs a counted number above another of the same sentence', () => {
    const answer = shortAnswer('How many solo tackles did Ada Fenwick make?', [
      page(
        1,
        'Ada Fenwick',
        "Linebacker Ada Fenwick was named the final's best player, recording 2½ sacks, five solo tackles and two forced fumbles.",
      ),
    ]);
    expect(answer?.value).toBe('five');
  });
});

describe('a thing of a kind the question names', () => {
  it('is a name before a plain noun phrase ("which running back": the name, not "longtime")', () => {
    const answer = shortAnswer('Which running back did the Harbor Kings waive?', [
      page(
        1,
        'Harbor Kings',
        'Despite waiving longtime running back Odell Frame and losing top receiver Ivo Brandt to a torn ACL in the preseason, the Harbor Kings had their best regular season in franchise history.',
      ),
    ]);
    expect(answer?.value).toBe('Odell Frame');
  });
});

describe('the noun asked, with WordNet', () => {
  it('is read where compromise tags it alone as an adjective ("of what animal?")', () => {
    expect(
      analyseShortQuestion(
        'Harrow Tales is an anthology film whose three stories are connected by the presence of what animal?',
      )?.nounWord,
    ).toBe('animal');
  });

  it('a candidate WordNet holds as a kind of the noun is of it ("fox" for "which animal")', () => {
    const answer = shortAnswer('Which animal appears with the director in every story of Harrow Tales?', [
      page(
        1,
        'Harrow Tales',
        'Harrow Tales is a 1991 anthology film. The director Marc Olin and a wandering fox appear in every story of Harrow Tales.',
      ),
    ]);
    expect(answer?.value).toMatch(/fox$/);
  });
});

describe('"what position"', () => {
  it('is answered by a role word, not by the name beside it', () => {
    const answer = shortAnswer('What position does Ada Fenwick play?', [
      page(1, 'Harvest Cup 50', 'Linebacker Ada Fenwick led the team with 109 tackles, and Bruno Castellan added 98.'),
    ]);
    expect(answer?.value).toBe('Linebacker');
  });
});

describe('nationality and what two named people share', () => {
  it('"what nationality" is answered by the nationality the page states', () => {
    const answer = shortAnswer('What is the nationality of the director of Harbour Lights?', [
      page(1, 'Harbour Lights', 'Harbour Lights is a 2009 film directed by Peter Dunmore.'),
      page(2, 'Peter Dunmore', 'Peter Dunmore (born 1960) is an Australian film director and screenwriter.'),
    ]);
    expect(answer?.value).toBe('Australian');
  });

  it('"what profession do X and Y share" is answered by a role both pages state', () => {
    const answer = shortAnswer('What profession do Ada Fenwick and Bruno Castellan share?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1960) is an English actress, singer and director.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is an Italian composer and director.'),
    ]);
    expect(answer?.value).toBe('director');
  });
});

describe('"what colour"', () => {
  it('is answered by a colour word', () => {
    const answer = shortAnswer('What color are the numbers in the Harvest Cup 50 logo?', [
      page(
        1,
        'Harvest Cup 50',
        'The logo of Harvest Cup 50 shows the Harvest Cup trophy with the numbers in gold, on a field of the two finalists.',
      ),
    ]);
    expect(answer?.value).toBe('gold');
  });
});

describe('the thing a question describes', () => {
  it('is not its answer when the pages do not call it the noun asked', () => {
    // The question describes Corran Castle (its own page says so) and asks for the coastal area beside it.
    const answer = shortAnswer(
      'A medieval fortress in Corran, East Marsh, Scotland borders on the south side of what coastal area?',
      [
        page(
          1,
          'Bellsands',
          'Bellsands, less commonly known as Broad Shell Bay, is a coastal area of forest, beach and grassland in East Marsh, south-east Scotland. It is bordered to the north by the sea, to the south by Corran and Corran Castle, and to the east by a golf course.',
        ),
        page(
          2,
          'Corran Castle',
          'Corran Castle is a medieval fortress in Corran, East Marsh, Scotland. The oldest parts of the castle date to the 13th century.',
        ),
      ],
    );
    expect(answer?.value).toBe('Bellsands');
  });
});
