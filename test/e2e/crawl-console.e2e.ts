import * as fs from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { type RunningService, startService } from '../support/service-process';

/**
 * The console's crawl page in a real browser (Debian's Chromium, puppeteer-core) against the
 * standalone service and the loopback crawl site: a crawl started from the form, its pages
 * arriving over server-sent events, its summary once it ends; a site map from the same form.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env.CHROMIUM_PATH ?? ''].find(
  (p) => p && fs.existsSync(p),
);
const describeBrowser = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM)
  console.log('[skipped] crawl console suite: no Chromium at /usr/bin/chromium; set CHROMIUM_PATH to use another');

jest.setTimeout(120_000);

describeBrowser('console crawl page (Chromium)', () => {
  let site: CrawlSite;
  let svc: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    site = await startCrawlSite({ crawlDelay: 0.2 });
    svc = await startService('standalone', { FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM!,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.type('#api-key', svc.demoKey);
    await page.click('#save-key');
    await page.waitForSelector('[data-testid="key-status"]');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await site?.close();
  });

  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));

  it('starts a crawl and watches its pages arrive, then its summary', async () => {
    await page.goto(`${svc.baseUrl}/#/crawl`);
    await page.type('#crawl-url', `${site.origin}/`);
    await page.$eval('#crawl-max_depth', (el) => ((el as HTMLInputElement).value = '1'));
    await page.click('#crawl-submit');
    await page.waitForFunction(() => location.hash.startsWith('#/crawl/crawl_'));
    await page.waitForFunction(
      () =>
        /completed|frontier exhausted/.test(
          document.querySelector('[data-testid="crawl-summary"]')?.textContent ?? '',
        ) && document.querySelectorAll('[data-testid="crawl-page"]').length >= 5,
      { timeout: 30_000 },
    );
    const rows = await texts('[data-testid="crawl-page"]');
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^Home depth 0 · HTTP 200/);
    expect(rows.join('\n')).toContain('About us depth 1');
    expect((await texts('[data-testid="crawl-summary"]'))[0]).toMatch(
      /^4 pages read, 1 failed · 8 credits · frontier exhausted$/,
    );
  });

  it('maps the site from the same form', async () => {
    await page.goto(`${svc.baseUrl}/#/crawl`);
    await page.type('#crawl-url', `${site.origin}/`);
    await page.click('#map-submit');
    await page.waitForSelector('[data-testid="map-links"] li');
    const links = await texts('[data-testid="map-links"] li');
    expect(links.length).toBe(10);
    expect(links.join('\n')).not.toContain('private');
  });

  it('shows a 422 next to the field that caused it', async () => {
    await page.goto(`${svc.baseUrl}/#/crawl`);
    await page.type('#crawl-url', `${site.origin}/`);
    await page.type('#crawl-include_paths', '(');
    await page.click('#crawl-submit');
    await page.waitForSelector('[data-testid="field-error"]');
    expect((await texts('[data-testid="field-error"]')).join(' ')).toMatch(/regular expression/);
  });
});
