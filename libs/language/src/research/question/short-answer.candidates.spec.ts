/** shortAnswer's candidates: which names, places and things a sentence offers for the kind asked, and how each is weighed. */
import { tokenize } from '@app/text';
import { candidatesIn, capitalisedRuns, instanceConflict, shortAnswer } from './short-answer';
import { page } from './testing/page';

describe('candidates of a thing', () => {
  it('a noun phrase ends before a preposition: "a victory in extra time" gives "victory", never "victory in"', () => {
    const question = 'Which cup was hosted in Dover in 2003?';
    const texts = candidatesIn(
      'thing',
      'The Corran Cup took place in Dover in 2003, after a victory in extra time.',
      new Set(tokenize(question)),
      question,
    ).map((c) => c.text);
    expect(texts).toContain('victory');
    expect(texts.filter((t) => /\s(?:in|of|at|on)$/.test(t))).toEqual([]);
  });

  it('no candidate opens a clause or is left unfinished: "However", "… that" are cut, a quoted title is not', () => {
    const question = 'What did Varden confirm to the agency?';
    const texts = candidatesIn(
      'thing',
      'However, Varden confirmed to the Corvane Press that the single "Since Old Lattice" would open the show.',
      new Set(tokenize(question)),
      question,
    ).map((c) => c.text);
    expect(texts).toContain('Corvane Press');
    expect(texts).toContain('Since Old Lattice');
    expect(texts.filter((t) => t !== 'Since Old Lattice' && /^(?:however|since|and)\b/i.test(t))).toEqual([]);
    expect(texts.filter((t) => /\s(?:that|the|and|of)$/i.test(t))).toEqual([]);
  });
});

describe('who is no venue, event or prize', () => {
  it('weighs a name ending in Stadium, Bowl or Trophy below a person for "who"', () => {
    const question = 'Who won the final at Harrow Stadium?';
    const found = candidatesIn(
      'person',
      'The final, held at Harrow Stadium, was won by Ada Fenwick, who also took the Orrin Trophy.',
      new Set(tokenize(question)),
      question,
    );
    const fitOf = (name: string) => found.find((c) => c.text === name)?.fit;
    expect(fitOf('Ada Fenwick')).toBeGreaterThan(1);
    expect(fitOf('Orrin Trophy')).toBeLessThan(1);
  });
});

describe('names as a "who" answer writes them', () => {
  const ask = (question: string, text: string) =>
    shortAnswer(question, [page(1, 'Harvest Cup broadcast', text)])?.value;

  it('drops the role written before a name ("League Commissioner Ada Fenwick")', () => {
    expect(
      ask(
        'Who was the league commissioner in 2012?',
        'In early 2012, League Commissioner Ada Fenwick said the final would be spectacular.',
      ),
    ).toBe('Ada Fenwick');
  });

  it('keeps a name joined by "&" whole ("Orrin & Co")', () => {
    expect(
      ask('Who designed the Harvest Cup trophy?', 'The Harvest Cup trophy was designed by Orrin & Co in 1961.'),
    ).toBe('Orrin & Co');
  });

  it('answers "who were" with the pair the sentence names', () => {
    const text =
      'Radio North carried the game, with Ada Fenwick as play-by-play announcer and Bruno Castellan and Ida Brenn as sideline reporters.';
    expect(ask('Who were the Radio North sideline reporters?', text)).toBe('Bruno Castellan and Ida Brenn');
    expect(ask('Who was the Radio North play-by-play announcer?', text)).toBe('Ada Fenwick');
  });
});

describe('where: a city is no venue, a venue no city, an event neither', () => {
  const text =
    'The 1985 final was held at Harrow Stadium in Corran, won by the home team; the Harvest Bowl XIX drew a record crowd.';
  const fits = (question: string) =>
    Object.fromEntries(candidatesIn('place', text, new Set(tokenize(question)), question).map((c) => [c.text, c.fit]));

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

describe('another one of a series', () => {
  it('a sentence about Harvest Cup XL answers nothing about Harvest Cup 50', () => {
    const answer = shortAnswer('Which team won the Harvest Cup 50 final?', [
      // The sentence about XL holds more of the question's words ("team").
      page(
        1,
        'Harvest Cup 50',
        'The Marsh Rovers team won the Harvest Cup XL final. Corbin Athletic won the Harvest Cup 50 final.',
      ),
    ]);
    expect(answer?.value).toBe('Corbin Athletic');
  });

  it('tells one of a series from another by its numeral, written in either form', () => {
    const conflict = instanceConflict('Which team won the Harvest Cup 50 final?');
    expect(conflict('The Harvest Cup XL final was won by the Marsh Rovers.')).toBe(true);
    expect(conflict('The Harvest Cup 50 final followed Harvest Cup XLIX.')).toBe(false);
    expect(conflict('The Marsh Rovers won the final.')).toBe(false);
    expect(instanceConflict('Which team won the final?')('The Harvest Cup XL final was won by the Marsh Rovers.')).toBe(
      false,
    );
  });
});

describe('the initials of a name the question writes', () => {
  it('are that name, no answer ("NRU" of "the Northern Rugby Union")', () => {
    const answer = shortAnswer('Which organisation is the Northern Rugby Union a member of?', [
      page(
        1,
        'Northern Rugby Union',
        'Since 2010 the NRU has been a member of the World Rugby Council, which heads and governs it.',
      ),
    ]);
    expect(answer?.value).toBe('World Rugby Council');
  });
});

describe('candidates of a thing are no bare number', () => {
  it('reads "Two" opening a sentence as no thing', () => {
    const question = 'What is the name of the fight song of the college whose branch campuses are in Millbrook?';
    const found = candidatesIn(
      'thing',
      'Two branch campuses are in Millbrook.',
      new Set(tokenize(question)),
      question,
    ).map((c) => c.text);
    expect(found).not.toContain('Two');
    expect(found).toContain('Millbrook');
  });
});

describe('candidatesIn: names start at a word', () => {
  it('reads no name inside a call sign or a code ("5KR" holds no "KR")', () => {
    const question = 'Where did Dale Corrigan work?';
    const found = candidatesIn(
      'place',
      'Dale Corrigan worked at 5KR in Brisbane.',
      new Set(tokenize(question)),
      question,
    ).map((c) => c.text);
    expect(found).toContain('Brisbane');
    expect(found).not.toContain('KR');
  });

  it('weighs a school for "who" as no one', () => {
    const question = 'Who played college football at Corran State?';
    const found = candidatesIn(
      'person',
      'He played college football at Corran State and attended Westfield Bay High School in Harbor City.',
      new Set(tokenize(question)),
      question,
    );
    expect(found.find((c) => c.text === 'Westfield Bay High School')?.fit).toBeLessThan(1);
  });
});

describe('"where"', () => {
  it('is answered by the place the sentence puts "in" before, with its region, not by a person the pages describe', () => {
    const answer = shortAnswer('Corran is a singer from Canada, but where does Kaito Sakuma hail from?', [
      page(
        1,
        'Kaito Sakuma',
        'Kaito Sakuma (born March 7, 1966 in Yorii, Saitama) is a Japanese musician and singer-songwriter.',
      ),
      page(2, 'Corran (musician)', 'Corran is a Canadian singer from Thornbury, Ontario.'),
    ]);
    expect(answer?.value).toBe('Yorii, Saitama');
  });
});

describe('a name with a number after it', () => {
  it('is of the noun before the number ("Great War II" for "what war")', () => {
    const answer = shortAnswer(
      'The Harbor Offensive was the final major offensive of the Pacific theatre of what war?',
      [
        page(
          1,
          'Harbor Offensive',
          'The Harbor Offensive, designated the Harbor Strategic Operation by the Allies, was the final major offensive of the Pacific theatre of Great War II.',
        ),
      ],
    );
    expect(answer?.value).toBe('Great War II');
  });
});

describe('a title the page quotes', () => {
  it('is one candidate, though chrono-node reads a date in it', () => {
    const answer = shortAnswer('What was the name of the single that Lanternfly and Ida Brenn recorded together?', [
      page(
        1,
        'Harvest Cup 50',
        'Ida Brenn, who recorded the single "Songs for the Weekend" with Lanternfly, would also appear.',
      ),
    ]);
    expect(answer?.value).toBe('Songs for the Weekend');
  });
});

describe('capitalisedRuns', () => {
  it('leaves out a sentence’s opening preposition or conjunction, not a name’s first word', () => {
    expect(
      capitalisedRuns(
        'Despite Calloway leading, Brandon Kestrell kicked a field goal. Although Harbor Otters won, Little Varden lost.',
      ),
    ).toEqual(['Calloway', 'Brandon Kestrell', 'Harbor Otters', 'Little Varden']);
  });

  it('keeps a name’s leading initials ("R.K. Entertainment")', () => {
    expect(capitalisedRuns('It was coined by R.K. Entertainment founder Park Jin-su.')).toEqual([
      'R.K. Entertainment',
      'Park Jin-su',
    ]);
  });
});

describe('candidates of "who"', () => {
  it('takes a one-word name the sentence itself reads as a name, though alone it reads as a noun', () => {
    const question = 'Who was the raiders’ leader?';
    const texts = candidatesIn(
      'person',
      'The raiders, under their leader Brenvold, swore fealty to King Aldric II of Tarn.',
      new Set(tokenize(question)),
      question,
    ).map((c) => c.text);
    expect(texts).toContain('Brenvold');
    expect(texts).toContain('Aldric II of Tarn');
  });

  it('gives the names a sentence lists together as one candidate when several are asked for, and only then', () => {
    const sentence = 'The abbots Tomas Vell and Mara Ellison led Orvik Abbey.';
    const two = 'Who were the two abbots of Orvik Abbey?';
    expect(candidatesIn('person', sentence, new Set(tokenize(two)), two).map((c) => c.text)).toContain(
      'Tomas Vell and Mara Ellison',
    );
    const one = 'Who led Orvik Abbey?';
    expect(
      candidatesIn('person', sentence, new Set(tokenize(one)), one)
        .map((c) => c.text)
        .filter((t) => t.includes(' and ')),
    ).toEqual([]);
  });
});
