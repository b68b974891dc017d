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
      noindex: false,
    });
  });

  it('gives no links for a robots nofollow page', () => {
    expect(pageLinks('<meta name="robots" content="noindex, nofollow"><a href="/a">A</a>', 'https://x.test/')).toEqual({
      title: null,
      links: [],
      nofollow: true,
      noindex: true,
    });
  });

  it('says when the robots meta asks not to index, links still followed', () => {
    const page = pageLinks('<meta name="ROBOTS" content="noindex"><a href="/a">A</a>', 'https://x.test/');
    expect(page).toMatchObject({ noindex: true, nofollow: false, links: [{ url: 'https://x.test/a', text: 'A' }] });
  });
});

describe('pageLinks on hostile pages', () => {
  it('builds a tree of the first maxTags start tags only: the links after them are not read', () => {
    const html = `<title>T</title>${'<li><a href="/x">x</a></li>'.repeat(10)}<a href="/late">late</a>`;
    // title + 10 list items of 2 tags = 21 tags; the late link is the 22nd.
    expect(pageLinks(html, 'https://x.test/', 21).links.map((l) => l.url)).not.toContain('https://x.test/late');
    expect(pageLinks(html, 'https://x.test/', 22).links.map((l) => l.url)).toContain('https://x.test/late');
    expect(pageLinks(html, 'https://x.test/', 21).title).toBe('T');
  });

  it('reads links after 60,000 unclosed divs (no quadratic repair)', () => {
    const html = `<p>x</p>${'<div>'.repeat(60_000)}<a href="/deep">Deep</a>`;
    expect(pageLinks(html, 'https://x.test/').links).toEqual([{ url: 'https://x.test/deep', text: 'Deep' }]);
  });

  it('reads links inside 20,000 closed nested tags without exhausting the stack', () => {
    const html = `${'<span>'.repeat(20_000)}<a href="/in">In <b>${'<i>'.repeat(20_000)}side${'</i>'.repeat(20_000)}</b></a>${'</span>'.repeat(20_000)}`;
    expect(pageLinks(html, 'https://x.test/').links).toEqual([{ url: 'https://x.test/in', text: 'In side' }]);
  });

  it('ignores a <base> longer than a URL may be, and drops over-long links', () => {
    const html = `<base href="https://x.test/${'p'.repeat(1_900_000)}/">${'<a href=x>x</a>'.repeat(500)}<a href="/${'q'.repeat(9_000)}">long</a><a href="/ok">ok</a>`;
    const { links } = pageLinks(html, 'https://x.test/start');
    expect(links.length).toBe(501);
    expect(links[0]).toEqual({ url: 'https://x.test/x', text: 'x' });
    expect(links.at(-1)).toEqual({ url: 'https://x.test/ok', text: 'ok' });
    expect(links.reduce((sum, link) => sum + link.url.length, 0)).toBeLessThan(100_000);
  });

  it('keeps at most 1 MiB of addresses and texts', () => {
    const href = `/${'a'.repeat(4_000)}`;
    const html = Array.from({ length: 1_000 }, (_, i) => `<a href="${href}${i}">t</a>`).join('');
    const { links } = pageLinks(html, 'https://x.test/');
    expect(links.length).toBeGreaterThan(200);
    expect(links.reduce((sum, link) => sum + link.url.length + link.text.length, 0)).toBeLessThanOrEqual(1024 * 1024);
  });
});
