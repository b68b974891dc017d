/** extractDocument's language: from the page's declarations, else detected from its text. */
import { extractDocument } from './extract-document';

describe('extractDocument: language', () => {
  const lang = (text: string, attrs = '', head = '') =>
    extractDocument(`<html ${attrs}><head>${head}</head><body><article><p>${text}</p></article></body></html>`, {
      url: 'https://x.example/',
    }).language;

  it('uses <html lang> and content-language, reduced to the primary subtag', () => {
    expect(lang('Some text.', 'lang="en-GB"')).toBe('en');
    expect(lang('Some text.', 'lang="pt_BR"')).toBe('pt');
    expect(lang('Some text.', '', '<meta http-equiv="Content-Language" content="nl-BE, fr">')).toBe('nl');
  });

  it.each([
    [
      'en',
      'The council said that the bridge would reopen in the spring, and that the work was on budget for the first time in years.',
    ],
    [
      'de',
      'Die Stadtbibliothek ist künftig an sieben Tagen in der Woche geöffnet, und der Zugang erfolgt mit dem Ausweis über ein Türsystem.',
    ],
    [
      'fr',
      "Il y a trois ans, j'ai vendu ma voiture et je me suis mise à aller au travail à vélo, neuf kilomètres entre la Croix-Rousse et le centre.",
    ],
    [
      'es',
      'Las bodegas comenzaron a recoger la uva a mediados de agosto, el inicio más temprano desde que hay registros en la región.',
    ],
    [
      'it',
      'Matera si può visitare in un giorno solo? Non del tutto, ma in una giornata ben organizzata si riesce a vedere il cuore della città.',
    ],
    [
      'pt',
      'A prefeitura anunciou nesta terça-feira um plano para dobrar a rede de ciclovias da cidade até o fim do ano que vem, com obras na zona norte.',
    ],
    [
      'nl',
      'Fietsdeel maakt deelfietsen in Nederlandse steden net zo makkelijk als je eigen fiets, en het platform moet met de groei van het bedrijf meegroeien.',
    ],
    [
      'ar',
      'اختتم معرض الكتاب الدولي مساء السبت دورته الخامسة والعشرين بعد عشرة أيام من الفعاليات بحضور تجاوز مليون زائر.',
    ],
  ])('detects %s from the text when the page does not say', (expected, text) => {
    expect(lang(text)).toBe(expected);
  });

  it('gives null for too little evidence, and trusts the page unless its text is overwhelmingly another language', () => {
    expect(lang('OK')).toBeNull();
    expect(
      lang(
        'Die Stadt hat die Bibliothek ausgebaut, und sie ist jetzt auch am Sonntag für alle geöffnet, die einen Ausweis haben. Die Kosten werden zu zwei Dritteln vom Land getragen, und die Stadt rechnet mit geringen Betriebskosten für das neue System.',
        'lang="en"',
      ),
    ).toBe('de');
    expect(
      lang(
        'Kindergarten and Zeitgeist are German loanwords that English speakers use in everyday conversation.',
        'lang="en"',
      ),
    ).toBe('en');
  });
});
