/** shortAnswer across pages: a candidate's own page as support, and a bridge from one page to the page it leads to, either way. */
import { shortAnswer } from './short-answer';
import { page } from './testing/page';

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

describe('a bridge: the page another page leads to', () => {
  it('answers what the question asks of the thing the first page names', () => {
    // Only Mara Quill's page says she plays Tom in The Lantern; only The Lantern's says who directed it.
    // Ben Quill's page holds more of the question's words, about another film.
    const answer = shortAnswer('Mara Quill plays Tom in a film directed by which famous director?', [
      page(
        1,
        'Mara Quill',
        'Mara Quill is an Australian actress. In 2015 she played the title character in "Hazel and the Very Long Day", and Tom in the film "The Lantern".',
      ),
      page(
        2,
        'Ben Quill',
        'Ben Quill is an Australian actor, the father of Mara Quill. He played Tom in the 2009 film "Harbour Lights" alongside Claire Dorsey.',
      ),
      page(3, 'The Lantern (2015 film)', 'The Lantern is a 2015 horror film directed by Peter Dunmore.'),
    ]);
    expect(answer?.value).toBe('Peter Dunmore');
  });

  it('a kind of the noun asked is a phrase ending in it', () => {
    const answer = shortAnswer('What type of sprite did Ida Brenn portray in Anton Kessel’s renowned opera?', [
      page(
        1,
        'Ida Brenn',
        'Ida Brenn (1901 – 1990) was a Czech operatic soprano who sang at the National Theatre in Brno. She drew acclaim for her portrayals of the title heroines in Anton Kessel’s "Lumina" and "Orla".',
      ),
      page(
        2,
        'Lumina (opera)',
        'Lumina is an opera by Anton Kessel. The libretto was written by the poet Jan Orel. A lumina is a water sprite from Baltic folklore, usually living in a lake or a river.',
      ),
    ]);
    expect(answer?.value).toBe('water sprite');
  });
});

describe('a bridge the other way: the answer’s page names the page the question describes', () => {
  it('a sentence naming another page borrows the question’s words that page states', () => {
    // Only the college's page says what the question says of the college; only the song's page
    // names the song, and says nothing of campuses.
    const answer = shortAnswer(
      'What is the name of the fight song of the college whose main campus is in Corbin, Ontario and whose branch campuses are in Millbrook?',
      [
        page(
          1,
          'Corbin College',
          'Corbin College is a public college whose main campus is in Corbin, Ontario. Two branch campuses are in Millbrook: the Ashdown Campus and a nursing school.',
        ),
        page(2, 'Corbin Song', 'Corbin Song is a fight song of Corbin College.'),
      ],
    );
    expect(answer?.value).toBe('Corbin Song');
  });
});
