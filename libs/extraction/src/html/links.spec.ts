import { pageLinks } from './links';

describe('pageLinks', () => {
  it('resolves links against the page or its <base>, keeps anchor text, skips nofollow and non-http', () => {
    const html = `<html><head><title> The  page </title><base href="https://x.test/docs/"></head><body>
      <a href="a">Chapter <b>A</b></a><a href="/b#frag" title="B page"></a><a rel="nofollow" href="c">C</a>
      <a href="mailto:x@x.test">mail</a><a href="javascript:void(0)">js</a><!-- <a href="hidden">hidden</a> --></body></html>`;
    expect(pageLinks(html, 'https://x.test/start')).toEqual({
      title: 'The page',
      links: [
        { url: 'https://x.test/docs/a', text: 'Chapter A' },
        { url: 'https://x.test/b', text: 'B page' },
      ],
      nofollow: false,
    });
  });

  it('gives no links for a robots nofollow page', () => {
    expect(pageLinks('<meta name="robots" content="noindex, nofollow"><a href="/a">A</a>', 'https://x.test/')).toEqual({ title: null, links: [], nofollow: true });
  });
});
