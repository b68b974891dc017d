import { tokenize } from '@app/text';
import { analyseShortQuestion, candidatesIn, capitalisedRuns, countsAsked, instanceConflict, kindConfidence, shortAnswer } from './short-answer';

const page = (source: number, title: string, text: string) => ({ source, url: `https://wiki.example/${source}`, title, text });

describe('analyseShortQuestion', () => {
  it.each([
    ['Who was born first, Ada Fenwick or Bruno Castellan?', 'choice'],
    ['Which mountain is higher: Mount Arden or The Spire', 'choice'],
    // Two options with no comma before them, after "between", after "which of".
    ["Which magazine was started first Harbour's Magazine or First for Readers?", 'choice'],
    ['Between Corran Roses and Harbor Celebrations, which was introduced first?', 'choice'],
    ['Which of Lanternfly and Orla has more members?', 'choice'],
    // Not two options: what is compared follows the comparative.
    ['Which team won more games in 1990 or 1991?', 'organisation'],
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
    // The question word that comes first asks; a later one opens a clause.
    ['What is the name of the fight song of the university whose campus is in Lawrence?', 'thing'],
    ['Which cup was famous for a scandal, where the referee was from Scotland?', 'thing'],
    ['Who fumbled the ball when tackled by Ada Fenwick?', 'person'],
    ['What is the name of the stadium where the final was played?', 'place'],
    ['What is the last name of the player who scored twice?', 'person'],
    // A noun WordNet first reads as a person asks for one, listed here or not; an adjective before it does not.
    ['Which physicist first measured the charge?', 'person'],
    ['What other performer joined the band on stage?', 'person'],
    ['What is the official language of the island?', 'thing'],
  ])('%s -> %s', (question, kind) => {
    expect(analyseShortQuestion(question)?.kind).toBe(kind);
  });

  it('the options of a choice follow the last comma or dash before "or"', () => {
    expect(analyseShortQuestion('Considering Ada Fenwick and Bruno Castellan, which state did they represent first - Ohio or Iowa?')?.options).toEqual(['Ohio', 'Iowa']);
    expect(analyseShortQuestion('Who was born first, Ada Fenwick or Bruno Castellan?')?.options).toEqual(['Ada Fenwick', 'Bruno Castellan']);
    // A title's colon is inside an option; a colon with no comma before the options leads them.
    expect(analyseShortQuestion("Which film won an award, Marrow's Kin: The Legacy of Salt or Lantern Hill, the 1970 documentary?")?.options).toEqual(["Marrow's Kin: The Legacy of Salt", 'Lantern Hill']);
    expect(analyseShortQuestion('Which mountain is higher: Mount Arden or The Spire')?.options).toEqual(['Mount Arden', 'Spire']);
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

  it('which of two by words: what each option’s sentences say together, not the words describing one of them', () => {
    // ", the 1970 concert documentary" only says which film is meant: it matches that film's own page.
    const answer = shortAnswer('Which film was Oscar nominated, Harrow Kin: The Legacy of Flax or Night Shelter, the 1970 concert documentary?', [
      page(1, 'Night Shelter (1970 film)', 'Night Shelter is a 1970 concert documentary film directed by Alma Reyes.'),
      page(2, 'Harrow Kin: The Legacy of Flax', 'Harrow Kin: The Legacy of Flax is a 2001 American documentary film. It was nominated for Best Documentary Feature at the 74th Academy Awards.'),
    ]);
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
    const answer = shortAnswer('Who did the Otters beat in the divisional round?', [
      page(1, 'Season', 'The Otters beat the Corran Harriers in the divisional round, 23–16, after a late field goal.'),
    ]);
    expect(answer?.value).toBe('Corran Harriers');
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
    expect(answer?.value).toBe('Thornfield, Ontario');
  });

  it('"which actor" is no title the sentence quotes', () => {
    const question = 'Which actor, who also appeared in "The Long Pier" (1995), does the 2017 comedy Night Driver star?';
    const found = candidatesIn('person', 'He won an award for the thriller "The Long Pier" (1995), and another for the drama "Silver Morning" (1999).', new Set(tokenize(question)), question, 'actor');
    expect(found.find((c) => c.text === 'Silver Morning')?.fit).toBe(0.5);
  });

  it('"which player" is a person, not the team compromise reads beside the question’s words', () => {
    const answer = shortAnswer('Which player did the Otters lose to an ACL injury in a preseason game?', [
      page(1, 'Harbor Otters', 'Despite waiving running back Lee Dunmore and losing top wide receiver Ken Marlow to a torn ACL in the preseason, the Harbor Otters had their best season.'),
    ]);
    expect(answer?.value).toBe('Ken Marlow');
  });

  it('"which <series>" is one of the series, told apart by a year or a numeral', () => {
    const answer = shortAnswer('Which Harbour Cup was famous for a disputed final between Norland and Estmark, where the referee was from Wales?', [
      page(1, 'Ivo Brant (referee)', 'Ivo Brant is a referee from Wales. He is known for two matches in the 1978 Harbour Cup in Ostia: the infamous "Long Whistle" between Norland and Estmark, and the final.'),
    ]);
    expect(answer?.value).toBe('1978 Harbour Cup');
    const numeral = shortAnswer('Which Harbour Cup did Ivo Brant referee at 38 years old?', [
      page(1, 'Ivo Brant (referee)', 'At 38 years old, Ivo Brant refereed Harbour Cup XXXIII, the oldest referee of a final, and later served as General Manager.'),
    ]);
    expect(numeral?.value).toBe('Harbour Cup XXXIII');
  });

  it('a name a page’s opening gives its subject among others is answered by the page’s own name', () => {
    const answer = shortAnswer('Lagoa Park is located in which area of Brazil comprising the states Acre and Rondônia?', [
      page(1, 'Amazonia, Brazil', 'La Amazonia or Região Amazônica is the humid area of north-west Brazil, comprising the states Acre and Rondônia.'),
      page(2, 'Lagoa Park', 'Lagoa Park is a national park in Brazil.'),
    ]);
    expect(answer?.value).toBe('Amazonia');
  });

  it('a name the pages of both things the question names state is what links them', () => {
    const answer = shortAnswer('Which actor, who also appeared in "Lantern Hill" (1995), does the 2017 action crime comedy Marrow Road star?', [
      page(1, 'Marrow Road', 'Marrow Road is a 2017 action crime comedy film written and directed by Edwin Marsh. It stars Anton Elgar, Kevin Spade, Lily Jarvis, Jon Hale, and Jamie Foss.'),
      page(2, 'Lantern Hill', 'Lantern Hill is a 1995 American mystery film directed by Bryan Sayer and written by Chris McQuade. It stars Stephen Bold, Gabriel Brenn, Kevin Pollard, and Kevin Spade.'),
      page(3, 'Edwin Marsh', 'Edwin Marsh is an English director, screenwriter and actor.'),
      page(4, 'Kevin Spade', 'Kevin Spade is an American actor, producer and singer.'),
    ]);
    expect(answer?.value).toBe('Kevin Spade');
  });

  it('a place one of a list is answered alone, not with the next one as its region', () => {
    const answer = shortAnswer('Where has Dora Keel’s column appeared that draws 9 million readers a month?', [
      page(1, 'Dora Keel', 'Dora Keel’s column has appeared in The Daily Lark, Kestrel Monthly, Quill Weekly, Salon and other media.'),
      page(2, 'Kestrel Monthly', 'Kestrel Monthly is a magazine that draws 9 million readers a month, based in Boston.'),
    ]);
    expect(answer?.value).toBe('Kestrel Monthly');
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

describe('a candidate’s own page', () => {
  it('supports it where it says what the question says of it', () => {
    // Corran Weekly stands nearer the question's words; only Fenwick's own page is the British response to Harlequin.
    const answer = shortAnswer('Which magazine, the British response to Harlequin, did Graham Marlowe edit?', [
      page(1, 'Graham Marlowe', 'Graham Marlowe edited Corran Weekly and, from 1970, Fenwick.'),
      page(2, 'Fenwick (magazine)', 'It was launched in London as the British response to Harlequin in 1965.'),
      page(3, 'Corran Weekly', 'Corran Weekly is a literary paper published in Leeds.'),
    ]);
    expect(answer?.value).toBe('Fenwick');
  });

  it('a page about the subject every page shares is not support', () => {
    const pages = [
      page(1, 'Super Final', 'For the Super Final, the cameras were upgraded to 5K resolution.'),
      page(2, 'Super Final', 'The Super Final was broadcast by the Corran Network in high resolution.'),
    ];
    expect(shortAnswer('What resolution were the cameras upgraded to?', pages)?.value).toBe('5K');
  });
});

describe('candidates of a thing', () => {
  it('a noun phrase ends before a preposition: "a victory in extra time" gives "victory", never "victory in"', () => {
    const question = 'Which cup was hosted in Dover in 2003?';
    const texts = candidatesIn('thing', 'The Corran Cup took place in Dover in 2003, after a victory in extra time.', new Set(tokenize(question)), question).map((c) => c.text);
    expect(texts).toContain('victory');
    expect(texts.filter((t) => /\s(?:in|of|at|on)$/.test(t))).toEqual([]);
  });
});

describe('what a "how many" question counts', () => {
  it('is the noun after "how many", found after the number or as its label', () => {
    expect(countsAsked('How many solo tackles did Ada Fenwick make?', 'five', 'Ada Fenwick recorded five solo tackles and 2½ sacks.')).toBe(true);
    expect(countsAsked('How many solo tackles did Ada Fenwick make?', '2½', 'Ada Fenwick recorded five solo tackles and 2½ sacks.')).toBe(false);
    expect(countsAsked('How many students does Tamsworth Polytechnic have?', '5,800', 'Students: 5,800')).toBe(true);
    expect(countsAsked('What was the score?', '31–24', 'It ended 31–24.')).toBeUndefined();
  });

  it('weighs a counted number above another of the same sentence', () => {
    const answer = shortAnswer('How many solo tackles did Ada Fenwick make?', [page(1, 'Ada Fenwick', 'Linebacker Ada Fenwick was named the final\'s best player, recording 2½ sacks, five solo tackles and two forced fumbles.')]);
    expect(answer?.value).toBe('five');
  });
});

describe('who is no venue, event or prize', () => {
  it('weighs a name ending in Stadium, Bowl or Trophy below a person for "who"', () => {
    const question = 'Who won the final at Harrow Stadium?';
    const found = candidatesIn('person', 'The final, held at Harrow Stadium, was won by Ada Fenwick, who also took the Orrin Trophy.', new Set(tokenize(question)), question);
    const fitOf = (name: string) => found.find((c) => c.text === name)?.fit;
    expect(fitOf('Ada Fenwick')).toBeGreaterThan(1);
    expect(fitOf('Orrin Trophy')).toBeLessThan(1);
  });
});

describe('names as a "who" answer writes them', () => {
  const ask = (question: string, text: string) => shortAnswer(question, [page(1, 'Harvest Cup broadcast', text)])?.value;

  it('drops the role written before a name ("League Commissioner Ada Fenwick")', () => {
    expect(ask('Who was the league commissioner in 2012?', 'In early 2012, League Commissioner Ada Fenwick said the final would be spectacular.')).toBe('Ada Fenwick');
  });

  it('keeps a name joined by "&" whole ("Orrin & Co")', () => {
    expect(ask('Who designed the Harvest Cup trophy?', 'The Harvest Cup trophy was designed by Orrin & Co in 1961.')).toBe('Orrin & Co');
  });

  it('answers "who were" with the pair the sentence names', () => {
    const text = 'Radio North carried the game, with Ada Fenwick as play-by-play announcer and Bruno Castellan and Ida Brenn as sideline reporters.';
    expect(ask('Who were the Radio North sideline reporters?', text)).toBe('Bruno Castellan and Ida Brenn');
    expect(ask('Who was the Radio North play-by-play announcer?', text)).toBe('Ada Fenwick');
  });
});

describe('a thing of a kind the question names', () => {
  it('is a name before a plain noun phrase ("which running back": the name, not "longtime")', () => {
    const answer = shortAnswer('Which running back did the Harbor Kings waive?', [
      page(1, 'Harbor Kings', 'Despite waiving longtime running back Odell Frame and losing top receiver Ivo Brandt to a torn ACL in the preseason, the Harbor Kings had their best regular season in franchise history.'),
    ]);
    expect(answer?.value).toBe('Odell Frame');
  });
});

describe('where: a city is no venue, a venue no city, an event neither', () => {
  const text = 'The 1985 final was held at Harrow Stadium in Corran, won by the home team; the Harvest Bowl XIX drew a record crowd.';
  const fits = (question: string) => Object.fromEntries(candidatesIn('place', text, new Set(tokenize(question)), question).map((c) => [c.text, c.fit]));

  it('for "what city", a stadium weighs below the city', () => {
    const found = fits('In what city was the 1985 final held?');
    expect(found['Harrow Stadium']).toBeLessThan(1);
    expect(found['Harvest Bowl XIX']).toBeLessThan(1);
  });

  it('for "what venue", the stadium weighs above the city', () => {
    const found = fits('In what venue was the 1985 final held?');
    expect(found['Harrow Stadium']).toBeGreaterThan(found['Corran'] ?? 1);
  });
});

describe('yes or no: both of a kind', () => {
  it('counts a word of a name the question writes once more as what it asks ("specialized in pizza")', () => {
    const answer = shortAnswer("Are both Marlo's Pizza and Gallo's specialized in pizza?", [
      page(1, "Marlo's Pizza", "Marlo's Pizza is an American restaurant franchise headquartered in Louisville."),
      page(2, "Gallo's", "Gallo's is a restaurant chain specializing in pizza, based in Dedham."),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });

  it('says nothing where a word of what it asks is on neither page ("Siberian dogs" of two dogs from elsewhere)', () => {
    const answer = shortAnswer('Are both the Marsh Terrier and the Hill Laika Siberian dogs?', [
      page(1, 'Marsh Terrier', 'The Marsh Terrier is a dog breed from Wales.'),
      page(2, 'Hill Laika', 'The Hill Laika is a hunting dog from Norway.'),
    ]);
    expect(answer).toBeNull();
  });
});

describe('yes or no: both of a nationality', () => {
  it('is no when one page places its subject in another country, however the pages word it', () => {
    // Neither page says "American": one is in Sarasota, Florida, the other in Austria.
    const answer = shortAnswer('Are the Gulf Coast Institute and FH Steinmark both American universities?', [
      page(1, 'Gulf Coast Institute', 'The Gulf Coast Institute is a public university located in Sarasota, Florida.'),
      page(2, 'FH Steinmark', 'FH Steinmark is one of the largest universities of applied sciences in Austria.'),
    ]);
    expect(answer).toMatchObject({ value: 'no', confidence: 'medium' });
  });

  it('is yes when both are of it, stated or by place', () => {
    const answer = shortAnswer('Are the Gulf Coast Institute and Harbor College both American universities?', [
      page(1, 'Gulf Coast Institute', 'The Gulf Coast Institute is a public university located in Sarasota, Florida.'),
      page(2, 'Harbor College', 'Harbor College is an American private university.'),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });
});

describe('the same nationality', () => {
  it('compares the countries, however each page words it', () => {
    const answer = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is a short story writer who lives in Sarasota, Florida.'),
    ]);
    expect(answer).toMatchObject({ value: 'yes', confidence: 'high' });
  });


  it('is a sure yes when both openings name it, an unsure no when they differ', () => {
    const same = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is an American short story writer.'),
    ]);
    expect(same).toMatchObject({ value: 'yes', confidence: 'high' });
    const differ = shortAnswer('Are Ada Fenwick and Bruno Castellan of the same nationality?', [
      page(1, 'Ada Fenwick', 'Ada Fenwick (born 1946) is an American novelist and essayist.'),
      page(2, 'Bruno Castellan', 'Bruno Castellan is an Italian short story writer.'),
    ]);
    expect(differ).toMatchObject({ value: 'no', confidence: 'medium' });
  });
});

describe('confidence for "which team"', () => {
  it('is sure only of a name compromise reads as an organisation’s', () => {
    const passages = [
      page(1, 'Harbour Cup final', 'Brask Holloway took the opening kickoff and ran it back 40 yards.'),
      page(2, 'Brask Holloway', 'Brask Holloway took the opening kickoff in the Harbour Cup final.'),
    ];
    expect(shortAnswer('Which team took the opening kickoff in the Harbour Cup final?', passages)).toMatchObject({ value: 'Brask Holloway', confidence: 'medium' });
  });
});

describe('confidence for "who"', () => {
  it('rests on the names compromise reads as a person’s (a league or a team is "who" too, but never a sure one)', () => {
    const question = 'The team that lost in the second round was coached by who?';
    const found = candidatesIn('person', 'The Harbor Kings, coached by Ada Fenwick, compete in NCAA Tier I.', new Set(tokenize(question)), question);
    expect(found.find((c) => c.text === 'Ada Fenwick')?.person).toBe(true);
    expect(found.find((c) => c.text.startsWith('NCAA'))?.person).toBeUndefined();
  });
});

describe('a bridge: the page another page leads to', () => {
  it('answers what the question asks of the thing the first page names', () => {
    // Only Mara Quill's page says she plays Tom in The Lantern; only The Lantern's says who directed it.
    // Ben Quill's page holds more of the question's words, about another film.
    const answer = shortAnswer('Mara Quill plays Tom in a film directed by which famous director?', [
      page(1, 'Mara Quill', 'Mara Quill is an Australian actress. In 2015 she played the title character in "Hazel and the Very Long Day", and Tom in the film "The Lantern".'),
      page(2, 'Ben Quill', 'Ben Quill is an Australian actor, the father of Mara Quill. He played Tom in the 2009 film "Harbour Lights" alongside Claire Dorsey.'),
      page(3, 'The Lantern (2015 film)', 'The Lantern is a 2015 horror film directed by Peter Dunmore.'),
    ]);
    expect(answer?.value).toBe('Peter Dunmore');
  });

  it('a kind of the noun asked is a phrase ending in it', () => {
    const answer = shortAnswer('What type of sprite did Ida Brenn portray in Anton Kessel’s renowned opera?', [
      page(1, 'Ida Brenn', 'Ida Brenn (1901 – 1990) was a Czech operatic soprano who sang at the National Theatre in Brno. She drew acclaim for her portrayals of the title heroines in Anton Kessel’s "Lumina" and "Orla".'),
      page(2, 'Lumina (opera)', 'Lumina is an opera by Anton Kessel. The libretto was written by the poet Jan Orel. A lumina is a water sprite from Baltic folklore, usually living in a lake or a river.'),
    ]);
    expect(answer?.value).toBe('water sprite');
  });
});

describe('a bridge the other way: the answer’s page names the page the question describes', () => {
  it('a sentence naming another page borrows the question’s words that page states', () => {
    // Only the college's page says what the question says of the college; only the song's page
    // names the song, and says nothing of campuses.
    const answer = shortAnswer('What is the name of the fight song of the college whose main campus is in Corbin, Ontario and whose branch campuses are in Millbrook?', [
      page(1, 'Corbin College', 'Corbin College is a public college whose main campus is in Corbin, Ontario. Two branch campuses are in Millbrook: the Ashdown Campus and a nursing school.'),
      page(2, 'Corbin Song', 'Corbin Song is a fight song of Corbin College.'),
    ]);
    expect(answer?.value).toBe('Corbin Song');
  });
});

describe('the noun asked, with WordNet', () => {
  it('is read where compromise tags it alone as an adjective ("of what animal?")', () => {
    expect(analyseShortQuestion('Harrow Tales is an anthology film whose three stories are connected by the presence of what animal?')?.nounWord).toBe('animal');
  });

  it('a candidate WordNet holds as a kind of the noun is of it ("fox" for "which animal")', () => {
    const answer = shortAnswer('Which animal appears with the director in every story of Harrow Tales?', [
      page(1, 'Harrow Tales', 'Harrow Tales is a 1991 anthology film. The director Marc Olin and a wandering fox appear in every story of Harrow Tales.'),
    ]);
    expect(answer?.value).toMatch(/fox$/);
  });
});

describe('another one of a series', () => {
  it('a sentence about Harvest Cup XL answers nothing about Harvest Cup 50', () => {
    const answer = shortAnswer('Which team won the Harvest Cup 50 final?', [
      // The sentence about XL holds more of the question's words ("team").
      page(1, 'Harvest Cup 50', 'The Marsh Rovers team won the Harvest Cup XL final. Corbin Athletic won the Harvest Cup 50 final.'),
    ]);
    expect(answer?.value).toBe('Corbin Athletic');
  });

  it('tells one of a series from another by its numeral, written in either form', () => {
    const conflict = instanceConflict('Which team won the Harvest Cup 50 final?');
    expect(conflict('The Harvest Cup XL final was won by the Marsh Rovers.')).toBe(true);
    expect(conflict('The Harvest Cup 50 final followed Harvest Cup XLIX.')).toBe(false);
    expect(conflict('The Marsh Rovers won the final.')).toBe(false);
    expect(instanceConflict('Which team won the final?')('The Harvest Cup XL final was won by the Marsh Rovers.')).toBe(false);
  });
});

describe('the initials of a name the question writes', () => {
  it('are that name, no answer ("NRU" of "the Northern Rugby Union")', () => {
    const answer = shortAnswer('Which organisation is the Northern Rugby Union a member of?', [
      page(1, 'Northern Rugby Union', 'Since 2010 the NRU has been a member of the World Rugby Council, which heads and governs it.'),
    ]);
    expect(answer?.value).toBe('World Rugby Council');
  });
});

describe('candidates of a thing are no bare number', () => {
  it('reads "Two" opening a sentence as no thing', () => {
    const question = 'What is the name of the fight song of the college whose branch campuses are in Millbrook?';
    const found = candidatesIn('thing', 'Two branch campuses are in Millbrook.', new Set(tokenize(question)), question).map((c) => c.text);
    expect(found).not.toContain('Two');
    expect(found).toContain('Millbrook');
  });
});

describe('candidatesIn: names start at a word', () => {
  it('reads no name inside a call sign or a code ("5KR" holds no "KR")', () => {
    const question = 'Where did Dale Corrigan work?';
    const found = candidatesIn('place', 'Dale Corrigan worked at 5KR in Brisbane.', new Set(tokenize(question)), question).map((c) => c.text);
    expect(found).toContain('Brisbane');
    expect(found).not.toContain('KR');
  });

  it('weighs a school for "who" as no one', () => {
    const question = 'Who played college football at Corran State?';
    const found = candidatesIn('person', 'He played college football at Corran State and attended Westfield Bay High School in Harbor City.', new Set(tokenize(question)), question);
    expect(found.find((c) => c.text === 'Westfield Bay High School')?.fit).toBeLessThan(1);
  });
});

describe('"where"', () => {
  it('is answered by the place the sentence puts "in" before, with its region, not by a person the pages describe', () => {
    const answer = shortAnswer('Corran is a singer from Canada, but where does Kaito Sakuma hail from?', [
      page(1, 'Kaito Sakuma', 'Kaito Sakuma (born March 7, 1966 in Yorii, Saitama) is a Japanese musician and singer-songwriter.'),
      page(2, 'Corran (musician)', 'Corran is a Canadian singer from Thornbury, Ontario.'),
    ]);
    expect(answer?.value).toBe('Yorii, Saitama');
  });
});

describe('a name with a number after it', () => {
  it('is of the noun before the number ("Great War II" for "what war")', () => {
    const answer = shortAnswer('The Harbor Offensive was the final major offensive of the Pacific theatre of what war?', [
      page(1, 'Harbor Offensive', 'The Harbor Offensive, designated the Harbor Strategic Operation by the Allies, was the final major offensive of the Pacific theatre of Great War II.'),
    ]);
    expect(answer?.value).toBe('Great War II');
  });
});

describe('a title the page quotes', () => {
  it('is one candidate, though chrono-node reads a date in it', () => {
    const answer = shortAnswer('What was the name of the single that Lanternfly and Ida Brenn recorded together?', [
      page(1, 'Harvest Cup 50', 'Ida Brenn, who recorded the single "Songs for the Weekend" with Lanternfly, would also appear.'),
    ]);
    expect(answer?.value).toBe('Songs for the Weekend');
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
      page(1, 'Harvest Cup 50', 'The logo of Harvest Cup 50 shows the Harvest Cup trophy with the numbers in gold, on a field of the two finalists.'),
    ]);
    expect(answer?.value).toBe('gold');
  });
});

describe('kindConfidence', () => {
  it('is never high for one word answering "who" (a first name compromise knows, or a word of a name)', () => {
    expect(kindConfidence('Who is the trophy on the logo named for?', 'Roman')).toBe('medium');
    expect(kindConfidence('Who is the head coach of the Otters?', 'Gary Marrick')).toBe('high');
  });
});

describe('the thing a question describes', () => {
  it('is not its answer when the pages do not call it the noun asked', () => {
    // The question describes Corran Castle (its own page says so) and asks for the coastal area beside it.
    const answer = shortAnswer('A medieval fortress in Corran, East Marsh, Scotland borders on the south side of what coastal area?', [
      page(1, 'Bellsands', 'Bellsands, less commonly known as Broad Shell Bay, is a coastal area of forest, beach and grassland in East Marsh, south-east Scotland. It is bordered to the north by the sea, to the south by Corran and Corran Castle, and to the east by a golf course.'),
      page(2, 'Corran Castle', 'Corran Castle is a medieval fortress in Corran, East Marsh, Scotland. The oldest parts of the castle date to the 13th century.'),
    ]);
    expect(answer?.value).toBe('Bellsands');
  });
});

describe('capitalisedRuns', () => {
  it('leaves out a sentence’s opening preposition or conjunction, not a name’s first word', () => {
    expect(capitalisedRuns('Despite Calloway leading, Brandon Kestrell kicked a field goal. Although Harbor Otters won, Little Varden lost.')).toEqual(['Calloway', 'Brandon Kestrell', 'Harbor Otters', 'Little Varden']);
  });

  it('keeps a name’s leading initials ("R.K. Entertainment")', () => {
    expect(capitalisedRuns('It was coined by R.K. Entertainment founder Park Jin-su.')).toEqual(['R.K. Entertainment', 'Park Jin-su']);
  });
});

describe('a hostile prompt', () => {
  it('is read as its bounded question (400 characters): 50,000 names after them change nothing', () => {
    const passages = [page(1, 'Harbor Otters', 'Only six teams, the Harbor Otters among them, have won 15 games in one season.')];
    const question = 'How many teams have won 15 games in one season?';
    const names = Array.from({ length: 50_000 }, (_, i) => `Zq${i.toString(36)} Word`).join(', ');
    const prompt = `${question} ${names}`;
    expect(shortAnswer(prompt, passages)).toEqual(shortAnswer(prompt.slice(0, 400), passages));
    expect(shortAnswer(question, passages)?.value).toBe('six');
  });
});
