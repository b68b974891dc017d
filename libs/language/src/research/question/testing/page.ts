/** A page as the short-answer specs pass it to shortAnswer: its source number, a wiki address, its title and text. */
export const page = (source: number, title: string, text: string) => ({
  source,
  url: `https://wiki.example/${source}`,
  title,
  text,
});
