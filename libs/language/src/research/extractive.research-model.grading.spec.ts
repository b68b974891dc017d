/**
 * gradeExtractive: which sources agree with a value, the kind of name a question asks for, a thing
 * asked by its noun, numbers that are names, "how many X", and the dates of a life.
 */
import type { ResearchPassage } from '@app/research';
import { gradeExtractive, promptAnswer } from './extractive.research-model';

describe('gradeExtractive agreement', () => {
  it('counts another source as agreeing only when it states the same value as a whole word, about the same thing', () => {
    const finding = gradeExtractive('In what year was Brightwater Foods founded?', [
      {
        source: 1,
        url: 'https://brightwater.test/about',
        title: 'About Brightwater Foods',
        text: 'Brightwater Foods was founded in 1997 in Tartu.',
      },
      {
        source: 2,
        url: 'https://brightwater.test/stats',
        title: 'Brightwater Foods in numbers',
        text: 'Brightwater Foods sold 11997 loaves last week.',
      },
      {
        source: 3,
        url: 'https://news.test/brightwater',
        title: 'Brightwater Foods at 25',
        text: 'Brightwater Foods, established in 1997, celebrates its anniversary.',
      },
    ]);
    expect(finding?.answer).toBe('1997');
    expect(finding?.evidence.map((e) => e.source)).toEqual([1, 3]);
  });

  it('is no surer of a name than the short path, which sees the other name beside the same words', () => {
    // Two sources state "Tom Reyes" as head coach; the pages name Sam Ortiz head coach almost as well.
    const page = (source: number, title: string, text: string): ResearchPassage => ({
      source,
      url: `https://w.test/${source}`,
      title,
      text,
    });
    const finding = gradeExtractive('Who is the head coach of the Harbour Otters?', [
      page(
        1,
        'Harbour Otters 2015 season',
        'Following their loss in the playoffs, the Harbour Otters underwent coaching changes, including a parting with head coach Tom Reyes (who had won four titles in his four years as Otters head coach), and the hiring of Sam Ortiz as the new head coach.',
      ),
      page(2, 'Otters history', 'Tom Reyes won four titles as head coach of the Harbour Otters.'),
      page(3, 'Harbour Otters', 'The Harbour Otters are a football team. Sam Ortiz is the head coach of the Otters.'),
    ]);
    expect(finding).toMatchObject({ answer: 'Tom Reyes', confidence: 'medium' });
  });
});

describe('gradeExtractive: a name the typed rules read must be a name of the kind asked', () => {
  const page = (source: number, title: string, text: string): ResearchPassage => ({
    source,
    url: `https://w.test/${source}`,
    title,
    text,
  });

  it('does not answer "what team" with a capitalised word opening a sentence', () => {
    const finding = gradeExtractive('What team had 310 yards in the Harvest Cup final?', [
      page(
        1,
        'Harvest Cup',
        'Only four other teams had ever gained fewer than 250 yards in a Harvest Cup final, and all of them lost. The previous record was 310 yards by the Dunmore Otters in the 1998 Harvest Cup final.',
      ),
    ]);
    expect(finding?.answer).toBe('Dunmore Otters');
  });

  it('does not answer "which group" with a numeral compromise sees as no organisation', () => {
    const finding = gradeExtractive('Which group headlined the Harvest Cup 50 halftime show?', [
      page(
        1,
        'Harvest Cup 50',
        'The Harvest Cup 50 halftime show was headlined by the British rock group Lanternfly with special guest performers Ida Brenn and Bruno Castellan, who headlined the Harvest Cup XLVII and Harvest Cup XLVIII halftime shows, respectively.',
      ),
    ]);
    expect(finding?.answer).toBe('Lanternfly');
  });

  it('does not answer "where" with an event the sentence puts "in" before', () => {
    const finding = gradeExtractive('Where did the Otters practice for the Harvest Cup?', [
      page(
        1,
        'Harvest Cup 50',
        'The Otters last wore matching white jerseys in the Harvest Cup in Harvest Cup XXXIII, when they defeated the Lisle Hawks. The Otters practiced at Corran University and stayed at the Corran Grand.',
      ),
    ]);
    expect(finding?.answer).toBe('Corran University');
  });

  it('keeps a place the sentence puts "in" before, though compromise reads it as a person', () => {
    const finding = gradeExtractive("In what city is Harbourline Media's 5KR talkback radio station located?", [
      page(
        1,
        'Dale Corrigan',
        'Dale Corrigan is an Australian radio presenter. Corrigan currently works at Harbourline Media on 5KR and 2XT; he was previously the breakfast presenter at KTV 1170.',
      ),
      page(
        2,
        '5KR',
        '5KR is a commercial talkback radio station based in Adelaide, South Australia, and owned by Harbourline Media.',
      ),
    ]);
    expect(finding?.answer).toBe('Adelaide');
  });

  it('does not answer "in what city" with a name "at" stands before (a station, a club)', () => {
    const finding = gradeExtractive("In what city is Harbourline Media's 5KR talkback radio station located?", [
      page(
        1,
        'Dale Corrigan',
        'Dale Corrigan is an Australian radio presenter. Corrigan currently works at Harbourline Media broadcasting on 5KR and 2XT, he was previously the program director and breakfast presenter at KTR 1170.',
      ),
      page(
        2,
        '5KR',
        "5KR is a talkback radio station based in Brisbane. It began transmission in 1932 as Brisbane's fourth commercial radio station.",
      ),
    ]);
    expect(finding?.answer).toBe('Brisbane');
  });
});

describe('gradeExtractive: a thing asked by its noun', () => {
  it('is answered by the short path where the typed rules read the question as asking for a person ("whose")', () => {
    const question =
      'What is the name of the fight song of the college whose main campus is in Corbin, Ontario and whose branch campuses are in Millbrook?';
    const finding = gradeExtractive(question, [
      {
        source: 1,
        url: 'https://w.example/1',
        title: 'Corbin College',
        text: 'Corbin College is a public college whose main campus is in Corbin, Ontario. Two branch campuses are in Millbrook: the Ashdown Campus and a nursing school.',
      },
      {
        source: 2,
        url: 'https://w.example/2',
        title: 'Corbin Song',
        text: 'Corbin Song is a fight song of Corbin College.',
      },
    ]);
    expect(finding?.answer).toBe('Corbin Song');
  });
});

describe('gradeExtractive: a number that is a name counts nothing', () => {
  it('does not answer "how many songs" with the album called "21"', () => {
    const question = 'How many songs were on the album by Ora Kessel that included "Lumen"?';
    const finding = gradeExtractive(question, [
      {
        source: 1,
        url: 'https://w.example/1',
        title: 'Lumen (song)',
        text: '"Lumen" is a song by American singer Ora Kessel from her album "21" (2017). It was written by Kessel.',
      },
      {
        source: 2,
        url: 'https://w.example/2',
        title: '21 (Ora Kessel album)',
        text: '21 is the debut studio album by American singer Ora Kessel. It was released on August 25, 2017.',
      },
    ]);
    expect(finding?.answer).not.toBe('21');
    expect(promptAnswer(question, finding ? [finding] : [])).toBeNull();
  });
});

describe('gradeExtractive: "how many X" is answered by a number X follows', () => {
  it('prefers "five touchdowns" to a figure nearer the question\'s other words', () => {
    const finding = gradeExtractive('How many touchdowns did Odell Frame make?', [
      {
        source: 1,
        url: 'https://w.test/kings',
        title: 'Harbor Kings',
        text: 'Running back Odell Frame also made a big impact with 720 yards, five touchdowns, 24 receptions, and a 4.7 yards per carry average. Frame joined the Kings in 2012.',
      },
    ]);
    expect(finding?.answer).toBe('five');
  });

  it('keeps a labelled figure the typed rules read ("Students: 5,800")', () => {
    const finding = gradeExtractive('How many students does Tamsworth Polytechnic have?', [
      {
        source: 1,
        url: 'https://tamsworth.test/facts',
        title: 'Tamsworth Polytechnic in figures',
        text: 'Founded: 1966\nTamsworth Polytechnic students: 5,800 (about 3,100 full-time equivalent)',
      },
      {
        source: 2,
        url: 'https://tamsworth.test/news',
        title: 'Placements',
        text: 'Each year two students from the watchmaking course in Antwerp spend a placement in the Tamsworth Polytechnic conservation workshop.',
      },
    ]);
    expect(finding?.answer).toBe('5,800');
  });
});

describe('gradeExtractive: the dates of a life', () => {
  const page = (source: number, title: string, text: string): ResearchPassage => ({
    source,
    url: `https://w.test/${source}`,
    title,
    text,
  });

  it('reads "died" as the end of the lifespan of the person the question describes, not a date beside its words', () => {
    // The typed rules alone took the date in the sentence sharing most words ("near Millbrook on July 27, 1863").
    const finding = gradeExtractive(
      'When was the glider pioneer died who claimed to have flown near Millbrook, Ontario on May 3, 1899?',
      [
        page(
          1,
          'Millbrook, Ontario',
          'Millbrook is a town in Ontario, where Tomas Elvgren claimed to have flown. Skirmishes occurred near Millbrook on July 27, 1863, when a steamer was attacked.',
        ),
        page(
          2,
          'Tomas Elvgren',
          'Tomas Elvgren (born Tomas Elvgrén; 2 March 1861 – 14 November 1930) was a glider pioneer who emigrated to Canada. He built engines until 1915.',
        ),
      ],
    );
    // Which date is read is the rules' and the candidate model's; whether it is given is the learned
    // answer model's (its threshold set by train:reader), so the date is checked where it was judged.
    expect(finding?.verdict?.value).toBe('14 November 1930');
    expect(finding?.evidence).toMatchObject([{ source: 2 }]);
  });
});
