import { asksLife, lifeDate, livesIn } from './lifespan';
import { analyseShortQuestion } from './short-answer';

const page = (source: number, title: string, text: string) => ({
  source,
  url: `https://wiki.example/${source}`,
  title,
  text,
});
const ask = (question: string) => analyseShortQuestion(question)!;

describe('livesIn', () => {
  it('reads the dates in a parenthesis after a name: a range is birth and death, "born" marks one', () => {
    const lives = livesIn([
      page(
        1,
        'Tomas Elvgren',
        'Tomas Elvgren (born Tomas Elvgrén; 2 March 1861 – 14 November 1930) was a glider builder who emigrated to Canada.',
      ),
      page(2, 'Haruki Sanno', 'Haruki Sanno (三野 春樹, born May 3, 1962) is a Japanese comic artist.'),
      page(
        3,
        'Brother Anselm',
        'Brother Anselm (c. 1450 – 1512) was a copyist. His pupil Jan Ruys (born 1480) outlived him.',
      ),
    ]);
    expect(lives.map((l) => [l.names, l.born?.text, l.died?.text, l.ownPage])).toEqual([
      [['Tomas Elvgren'], '2 March 1861', '14 November 1930', true],
      [['Haruki Sanno'], 'May 3, 1962', undefined, true],
      [['Brother Anselm'], '1450', '1512', true],
      [['Jan Ruys'], '1480', undefined, false],
    ]);
  });

  it('reads a bounded number of lives, and no run-on sentence, from a hostile page', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `Person Alpha (born ${1000 + (i % 900)})`).join(' and ');
    expect(livesIn([page(1, 'Many', `${many} met.`)])).toEqual([]);
    const sentences = Array.from({ length: 5_000 }, (_, i) => `Person Alpha (born ${1000 + (i % 900)}) met.`).join(' ');
    expect(livesIn([page(1, 'Many', sentences)])).toHaveLength(40);
  });

  it('reads no life from a parenthesis without dates, or from a clause the question asks nothing of', () => {
    expect(
      livesIn([page(1, 'Blue Hour', 'Blue Hour (Japanese: 青い時間) is a comic series by Haruki Sanno (an artist).')]),
    ).toEqual([]);
    expect(asksLife(ask('When was Blue Hour first published?'))).toBeNull();
    expect(asksLife(ask('Who was born in Osaka?'))).toBeNull();
    expect(asksLife(ask('In what year was the author of Blue Hour born?'))).toBe('born');
    expect(asksLife(ask('When did the builder of the first glider die?'))).toBe('died');
  });
});

describe('lifeDate', () => {
  const series = page(
    1,
    'Blue Hour (comic)',
    'Blue Hour is a Japanese comic series written and illustrated by Haruki Sanno. The story follows high school student Kaito Mori, who first appeared in 2006.',
  );
  const author = page(
    2,
    'Haruki Sanno',
    'Haruki Sanno (三野 春樹, born May 3, 1962) is a Japanese comic artist, known for "Blue Hour".',
  );
  const rival = page(3, 'Emi Tachibana', 'Emi Tachibana (born 1971) is a Japanese voice actress from Osaka.');

  it('answers with the dates of the person the question describes: their own page and the pages naming them', () => {
    // The series' page never says when Haruki Sanno was born; his own page does not mention Kaito Mori.
    const q = ask(
      'A Japanese comic series about high school student Kaito Mori is written and illustrated by someone born in what year?',
    );
    expect(lifeDate(q, [series, rival, author])).toEqual({
      value: '1962',
      confidence: 'medium',
      source: 2,
      quote: 'Haruki Sanno (三野 春樹, born May 3, 1962) is a Japanese comic artist, known for "Blue Hour".',
      agreeing: [],
    });
  });

  it('gives the date as the page writes it for "when", the end of life asked, and is sure when the question names them', () => {
    const builder = page(
      4,
      'Tomas Elvgren',
      'Tomas Elvgren (born Tomas Elvgrén; 2 March 1861 – 14 November 1930) was a glider builder who emigrated to Canada.',
    );
    expect(lifeDate(ask('When did the glider builder who emigrated to Canada die?'), [rival, builder])?.value).toBe(
      '14 November 1930',
    );
    expect(lifeDate(ask('When was Tomas Elvgren born?'), [rival, builder])).toMatchObject({
      value: '2 March 1861',
      confidence: 'high',
    });
    // Only a birth is given: no death date to answer with.
    expect(lifeDate(ask('When did the comic artist Haruki Sanno die?'), [author])).toBeNull();
  });

  it('answers nothing when no life holds half the question or two are described alike', () => {
    expect(
      lifeDate(ask('In what year was the drummer of a Finnish metal band born?'), [series, author, rival]),
    ).toBeNull();
    const twin = page(5, 'Kenji Sanno', 'Kenji Sanno (born 1965) is a Japanese comic artist, known for "Blue Hour".');
    expect(
      lifeDate(ask('The Japanese comic artist known for "Blue Hour" was born in what year?'), [author, twin]),
    ).toBeNull();
  });
});
