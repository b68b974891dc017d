import { parseAge, rateLimitResetMs, braveLanguage } from './brave.search-provider';
import { parseRetryAfter } from './http-json';
import { isoDay, plainText } from './hit-text';

describe('search adapter helpers', () => {
  const now = new Date('2025-01-16T12:00:00Z');

  it('plainText strips tags, decodes entities, never reaches Object.prototype', () => {
    expect(plainText('Rust&#x27;s <strong>async</strong> &quot;runtime&quot; &amp; more')).toBe(
      `Rust's async "runtime" & more`,
    );
    expect(plainText('a &constructor; b')).toBe('a &constructor; b');
    expect(plainText(undefined)).toBe('');
  });

  it('isoDay keeps the written calendar date and rejects placeholders and the future', () => {
    expect(isoDay('2025-01-14T23:30:00-05:00', now)).toBe('2025-01-14');
    expect(isoDay('1970-01-01T00:00:00', now)).toBeNull();
    expect(isoDay('2031-01-01', now)).toBeNull();
    expect(isoDay('2024-02-30', now)).toBeNull();
    expect(isoDay(null, now)).toBeNull();
  });

  it("parses Brave's human ages", () => {
    expect(parseAge('December 3, 2024', now)).toBe('2024-12-03');
    expect(parseAge('2 days ago', now)).toBe('2025-01-14');
    expect(parseAge('an hour ago', now)).toBe('2025-01-16');
    expect(parseAge('5 months ago', now)).toBe('2024-08-19');
    expect(parseAge('sometime', now)).toBeNull();
  });

  it('reads Retry-After and the longest exhausted Brave rate-limit window', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(
      rateLimitResetMs(new Headers({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '0, 1849' })),
    ).toBe(1000);
    expect(rateLimitResetMs(new Headers({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '0, 0' }))).toBe(
      1_419_704_000,
    );
    expect(rateLimitResetMs(new Headers())).toBeUndefined();
  });

  it("maps language codes to Brave's search_lang", () => {
    expect(braveLanguage('ja')).toBe('jp');
    expect(braveLanguage('pt-BR')).toBe('pt-br');
    expect(braveLanguage('en-GB')).toBe('en-gb');
    expect(braveLanguage('de-AT')).toBe('de');
    expect(braveLanguage('zh')).toBe('zh-hans');
  });
});
