import * as fs from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { type FixtureWeb, fixtureSeeds, startFixtureWeb } from '../support/fixture-web';
import { type RunningService, startService } from '../support/service-process';
import { startSlowSearxng } from '../support/slow-searxng';

/**
 * The console in a real browser: Debian's Chromium driven by puppeteer-core against the standalone
 * service on the fixture web. Where no Chromium is installed (and `npm test` could not install it:
 * not root, or no package source), the suite reports itself skipped with the reason.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env.CHROMIUM_PATH ?? ''].find(
  (p) => p && fs.existsSync(p),
);
const describeBrowser = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM)
  console.log(
    '[skipped] console browser suite: no Chromium at /usr/bin/chromium (npm test installs the Debian package chromium when run as root); set CHROMIUM_PATH to use another',
  );

jest.setTimeout(120_000);

describeBrowser('console (Chromium)', () => {
  let web: FixtureWeb;
  let svc: RunningService;
  let browser: Browser;
  let page: Page;
  /** Every request the page made: the key may travel only in an Authorization header to /v1 on this origin. */
  const requests: Array<{ url: string; authorization: string | undefined }> = [];

  beforeAll(async () => {
    web = await startFixtureWeb();
    svc = await startService('standalone', {
      LOCAL_INDEX_SEEDS: fixtureSeeds(web),
      FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
      RATE_LIMIT_RPS: '0',
    });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM!,
      headless: true,
      // Without the background-networking flags Chromium keeps calling home, which this closed network refuses.
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
    await page.setViewport({ width: 1280, height: 900 });
    page.on('request', (request) =>
      requests.push({ url: request.url(), authorization: request.headers().authorization }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await web?.stop();
  });

  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
  const fill = async (selector: string, value: string) => {
    await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
    await page.type(selector, value);
  };
  const saveKey = async (key: string) => {
    await fill('#api-key', key);
    await page.click('#save-key');
    await page.waitForSelector('[data-testid="key-status"]');
  };

  it('is served at / and /console/... with a policy that keeps it to its own files and origin', async () => {
    const root = await fetch(`${svc.baseUrl}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    expect(root.headers.get('content-security-policy')).toContain("script-src 'self'");
    const deep = await fetch(`${svc.baseUrl}/console/runs`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(await (await fetch(`${svc.baseUrl}/`)).text());
    expect((await fetch(`${svc.baseUrl}/console/app.js`)).headers.get('content-type')).toContain('javascript');
    // The API is untouched by the console's routes.
    expect((await fetch(`${svc.baseUrl}/v1/searches`)).status).toBe(401);
  });

  it('a bad key shows the 401 in words', async () => {
    await page.goto(`${svc.baseUrl}/`);
    await saveKey('wr_not_a_real_key_at_all_0000000000');
    await fill('#search-queries', 'warehouse robot picking arm');
    await page.click('#search-submit');
    await page.waitForSelector('[data-testid="auth-error"]');
    expect((await texts('[data-testid="auth-error"]')).join(' ')).toMatch(/401/);
  });

  it('runs a search and shows its rows, credits, timing and a copyable curl without the key', async () => {
    await saveKey(svc.demoKey);
    await page.goto(`${svc.baseUrl}/#/search`);
    await fill('#search-queries', 'warehouse robot picking arm');
    await page.click('#search-submit');
    await page.waitForSelector('[data-testid="search-result"]');
    const rows = await texts('[data-testid="search-result"]');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.join(' ')).toMatch(/acme-robotics\.test/);
    expect((await texts('[data-testid="search-credits"]')).join(' ')).toMatch(/\d/);
    expect((await texts('[data-testid="search-timing"]')).join(' ')).toMatch(/\d/);
    const curl = (await texts('[data-testid="search-curl"]')).join(' ');
    expect(curl).toContain('/v1/search');
    expect(curl).not.toContain(svc.demoKey);
  });

  it('shows a 422 next to the field that caused it', async () => {
    await page.goto(`${svc.baseUrl}/#/search`);
    // Six queries, one more than the API takes: the refusal names the form's queries field.
    await page.$eval(
      '#search-queries',
      (el) => ((el as HTMLTextAreaElement).value = ['one', 'two', 'three', 'four', 'five', 'six'].join('\n')),
    );
    await page.click('#search-submit');
    await page.waitForSelector('[data-testid="field-error"]');
    const fields = await page.$$eval('[data-testid="field-error"]', (nodes) =>
      nodes.map((n) => n.getAttribute('data-field')),
    );
    expect(fields).toContain('queries');
    expect((await texts('[data-testid="field-error"][data-field="queries"]')).join(' ')).toMatch(/5/);
  });

  let runId = '';
  it('starts a deep run, shows its events live, then the cited report whose [N] jump to numbered sources', async () => {
    await page.goto(`${svc.baseUrl}/#/deep`);
    await fill('#deep-prompt', 'In what year was Acme Robotics founded?');
    await page.click('#deep-start');
    await page.waitForSelector('[data-testid="deep-event"][data-event="plan.created"]');
    await page.waitForFunction(
      () => /completed/.test(document.querySelector('[data-testid="run-status"]')?.textContent ?? ''),
      { timeout: 60_000 },
    );
    const events = await page.$$eval('[data-testid="deep-event"]', (nodes) =>
      nodes.map((n) => n.getAttribute('data-event')),
    );
    expect(events).toEqual(expect.arrayContaining(['plan.created', 'results.updated', 'run.completed']));
    runId = /#\/deep\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
    expect(runId).not.toBe('');
    await page.waitForSelector('[data-testid="report"] [data-testid="citation"]');
    expect((await texts('[data-testid="report"]')).join(' ')).toContain('2014');
    const targets = await page.$$eval('[data-testid="citation"]', (nodes) => nodes.map((n) => n.getAttribute('href')));
    for (const href of targets) expect(await page.$(`[data-testid="source"]${href}`)).not.toBeNull();
    // Following a citation lands on its source, and the run stays on screen.
    await page.click('[data-testid="citation"]');
    await page.waitForFunction(
      (id) => {
        const target = document.querySelector(id as string)!;
        const box = target.getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight;
      },
      {},
      targets[0],
    );
    expect(await page.$('[data-testid="report"]')).not.toBeNull();
  });

  it('reconnects a dropped live stream with Last-Event-ID: every event once, then the report', async () => {
    // A second tab whose fetch cuts the first event stream right after its first event (a dropped
    // connection, as a proxy or a flaky network gives); later connections pass through untouched.
    const tab = await browser.newPage();
    await tab.evaluateOnNewDocument(() => {
      const state = { cut: false, resumedFrom: [] as string[] };
      (window as unknown as { __drop: typeof state }).__drop = state;
      const realFetch = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          location.href,
        );
        const response = await realFetch(input, init);
        if (!url.pathname.endsWith('/events')) return response;
        const last = new Headers(init?.headers).get('Last-Event-ID');
        if (last) state.resumedFrom.push(last);
        if (state.cut || !response.body) return response;
        state.cut = true;
        const reader = response.body.getReader();
        let text = '';
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            text += new TextDecoder().decode(value);
            // The first event with an id (a stream may open with a comment or a retry line).
            const idAt = text.search(/^id:/m);
            const end = idAt < 0 ? -1 : text.indexOf('\n\n', idAt);
            if (end < 0) return controller.enqueue(value);
            // Deliver the first event whole, then fail the connection.
            controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
            await reader.cancel();
            controller.error(new TypeError('network error'));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
    });
    try {
      await tab.goto(`${svc.baseUrl}/#/deep`);
      // The key lives in one tab's session storage: this tab is given it too.
      await tab.type('#api-key', svc.demoKey);
      await tab.click('#save-key');
      await tab.waitForSelector('[data-testid="key-status"]');
      await tab.waitForSelector('#deep-prompt');
      await tab.type('#deep-prompt', 'Who founded Acme Robotics?');
      await tab.click('#deep-start');
      await tab.waitForFunction(
        () => /completed/.test(document.querySelector('[data-testid="run-status"]')?.textContent ?? ''),
        { timeout: 60_000 },
      );
      await tab.waitForSelector('[data-testid="report"] [data-testid="citation"]');
      const drop = await tab.evaluate(
        () => (window as unknown as { __drop: { cut: boolean; resumedFrom: string[] } }).__drop,
      );
      expect(drop.cut).toBe(true);
      expect(drop.resumedFrom.length).toBeGreaterThan(0);
      const events = await tab.$$eval('[data-testid="deep-event"]', (nodes) =>
        nodes.map((n) => n.getAttribute('data-event')),
      );
      for (const once of ['run.queued', 'plan.created', 'run.completed'])
        expect(events.filter((e) => e === once)).toHaveLength(1);
      // The page's own list equals the run's recorded events: nothing lost, nothing twice.
      const id = /#\/deep\/([^/?#]+)/.exec(tab.url())![1]!;
      const history = (await (
        await fetch(`${svc.baseUrl}/v1/searches/${id}/history`, { headers: { Authorization: `Bearer ${svc.demoKey}` } })
      ).json()) as { events: unknown[] };
      expect(events.length).toBeGreaterThan(3);
      expect(events.length).toBeLessThanOrEqual(history.events.length);
    } finally {
      await tab.close();
      // A tab in the background runs no animation frames: the suite's page comes back to the front.
      await page.bringToFront();
    }
  });

  it('cancels a deep run while it runs', async () => {
    // A search provider that takes 1.5 s a query keeps the run going long enough to cancel it.
    const slow = await startSlowSearxng(web, 1_500);
    const slowSvc = await startService('standalone', {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: slow.url,
      SEARXNG_RPS: '0',
      FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
      RATE_LIMIT_RPS: '0',
    });
    const tab = await browser.newPage();
    try {
      await tab.goto(`${slowSvc.baseUrl}/#/deep`);
      await tab.type('#api-key', slowSvc.demoKey);
      await tab.click('#save-key');
      await tab.waitForSelector('[data-testid="key-status"]');
      await tab.type('#deep-prompt', 'warehouse robot picking arm');
      await tab.click('#deep-start');
      await tab.waitForSelector('[data-testid="deep-event"][data-event="plan.created"]');
      await tab.waitForSelector('#deep-cancel', { visible: true });
      await tab.click('#deep-cancel');
      await tab.waitForFunction(
        () => /cancel/.test(document.querySelector('[data-testid="run-status"]')?.textContent ?? ''),
        { timeout: 30_000 },
      );
      const id = /#\/deep\/([^/?#]+)/.exec(tab.url())![1]!;
      const view = (await (
        await fetch(`${slowSvc.baseUrl}/v1/searches/${id}`, { headers: { Authorization: `Bearer ${slowSvc.demoKey}` } })
      ).json()) as { status: string };
      expect(['cancelled', 'cancelling']).toContain(view.status);
    } finally {
      await tab.close();
      await page.bringToFront();
      await slowSvc.stop();
      await slow.close();
    }
  });

  it('lists the run and shows its history as a timeline', async () => {
    await page.goto(`${svc.baseUrl}/#/runs`);
    await page.waitForSelector(`[data-testid="run-row"][data-id="${runId}"]`);
    const row = `[data-testid="run-row"][data-id="${runId}"]`;
    // The row is the link, or holds it.
    await ((await page.$(`${row} a`)) ?? (await page.$(row)))!.click();
    await page.waitForSelector('[data-testid="timeline-item"]');
    const items = await texts('[data-testid="timeline-item"]');
    expect(items.join(' ')).toMatch(/SearchRunRequested|run\.queued|queued/i);
    expect(items.length).toBeGreaterThan(3);
    expect((await texts('[data-testid="run-view"]')).join(' ')).toContain(runId);
  });

  it('runs a task from schema rows and shows each field with its citations and confidence', async () => {
    await page.goto(`${svc.baseUrl}/#/task`);
    await fill('#task-input', 'Company profile of Acme Robotics');
    const rows = await page.$$('[data-testid="schema-row"]');
    if (rows.length === 0) await page.click('#schema-add-row');
    await page.$eval('[data-testid="schema-row"] .schema-name', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('[data-testid="schema-row"] .schema-name', 'founded_year');
    await page.select('[data-testid="schema-row"] .schema-type', 'integer');
    await page.type('[data-testid="schema-row"] .schema-description', 'Year the company was founded');
    await page.click('#task-submit');
    await page.waitForSelector('[data-testid="task-output-row"]', { timeout: 60_000 });
    const out = (await texts('[data-testid="task-output-row"]')).join(' ');
    expect(out).toContain('founded_year');
    expect(out).toContain('2014');
    expect(out).toMatch(/high|medium|low/);
  });

  it('shows usage as a chart with the table beside it', async () => {
    await page.goto(`${svc.baseUrl}/#/usage`);
    await page.waitForSelector('[data-testid="usage-chart"] [data-testid="usage-bar"]');
    expect((await page.$$('[data-testid="usage-bar"]')).length).toBeGreaterThan(0);
    expect((await texts('[data-testid="usage-table"]')).join(' ')).toMatch(/sku_/);
  });

  it("follows a task group's progress to its end, and lists its runs with their outputs", async () => {
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${svc.baseUrl}${route}`, {
        method,
        headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return response.json();
    };
    const { taskgroup_id: id } = await call('POST', '/v1/tasks/groups', { metadata: { source: 'console' } });
    const inputs = [
      'Where is Acme Robotics headquartered?',
      'Who founded Acme Robotics?',
      'What does Acme Robotics make?',
    ];
    await call('POST', `/v1/tasks/groups/${id}/runs`, {
      inputs: inputs.map((input) => ({ input })),
      default_task_spec: { processor: 'base' },
    });
    await page.goto(`${svc.baseUrl}/#/groups`);
    await page.waitForSelector(`[data-testid="group-row"][data-id="${id}"]`);
    await page.click(`[data-testid="group-row"][data-id="${id}"] a`);
    // The page reads the group again while it is active: it ends showing every run ended.
    await page.waitForFunction(
      () => {
        const count = (key: string) =>
          Number((document.querySelector(`[data-testid="count-${key}"]`)?.textContent ?? '').replace(/\D+/g, ''));
        return count('completed') + count('failed') === 3 && count('queued') + count('running') === 0;
      },
      { timeout: 60_000 },
    );
    const rows = await texts('[data-testid="group-run"] .run-link');
    expect(rows).toEqual(inputs);
  });

  it('fits a phone screen', async () => {
    await page.setViewport({ width: 375, height: 800 });
    for (const route of ['#/search', '#/deep', '#/runs', '#/task', '#/groups', '#/usage']) {
      await page.goto(`${svc.baseUrl}/${route}`);
      await page.waitForSelector('[data-testid="nav-search"]');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(376);
    }
    await page.setViewport({ width: 1280, height: 900 });
  });

  it('keeps the key in this tab and sends it nowhere but the Authorization header of its own API', async () => {
    expect(await page.evaluate(() => sessionStorage.getItem('wr.apiKey'))).toBe(svc.demoKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const origin = new URL(svc.baseUrl).origin;
    for (const r of requests) {
      expect(r.url).not.toContain(svc.demoKey);
      if (r.authorization) {
        expect(r.url.startsWith(`${origin}/v1/`)).toBe(true);
      }
    }
    expect(requests.some((r) => r.authorization === `Bearer ${svc.demoKey}`)).toBe(true);
  });
});
