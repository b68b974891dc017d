import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserRenderer } from '@app/fetch';
import { SCRIPTED_TEXT, scriptedPage } from '../../support/documents';

/**
 * The headless Chromium pool against real loopback servers, with Debian's chromium (`.ci/run`
 * installs it; there is no stand-in that runs scripts without a browser). The site is allowed by
 * host AND port (FETCH_ALLOW_HOSTS), so a second loopback server on another port is not: its
 * request log proves that nothing the page tried reached it.
 */
const BROWSER = process.env.BROWSER_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
jest.setTimeout(120_000);

const listen = async (handler: http.RequestListener) => {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/** Live processes (zombies aside) whose process group is `pgid`, read from /proc. */
const processesInGroup = (pgid: number): number[] =>
  fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(group) === pgid;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);

const until = async (condition: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('BrowserRenderer', () => {
  let site: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;
  const otherSaw: string[] = [];
  const siteSaw: string[] = [];
  const siteRoutes = new Map<string, string>();
  const cookiesSeen = new Map<string, string | undefined>();
  let renderer: BrowserRenderer;
  // A profile a killed process left behind (its lock names this host and a process that is gone).
  const leftBehind = path.join(os.tmpdir(), `render-profile-left-${process.pid}`);

  beforeAll(async () => {
    if (!fs.existsSync(BROWSER)) throw new Error(`these tests need Chromium at ${BROWSER} (apt-get install chromium)`);
    other = await listen((req, res) => {
      otherSaw.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' }).end('INTERNAL-SECRET');
    });
    site = await listen((req, res) => {
      siteSaw.push(req.url ?? '');
      if (req.url === '/set-cookies' || req.url === '/check-cookies') cookiesSeen.set(req.url, req.headers.cookie);
      if (req.url === '/set-cookies') res.setHeader('Set-Cookie', 'served=from-header; Path=/; Max-Age=3600');
      if (req.url === '/check-cookies')
        return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(scriptedPage());
      if (req.url === '/slow-data')
        return void setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('late words'), 1_500);
      if (req.url === '/scripted') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(scriptedPage());
      const routed = siteRoutes.get(req.url ?? '');
      if (routed) return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(routed);
      if (req.url === '/hop') return void res.writeHead(302, { Location: `${other.origin}/via-redirect` }).end();
      if (req.url === '/download')
        return void res
          .writeHead(200, {
            'Content-Type': 'application/octet-stream',
            'Content-Disposition': 'attachment; filename="x.bin"',
          })
          .end('bytes');
      if (req.url === '/probe') {
        const tries = `
          const seen = [];
          const grab = (u) => fetch(u).then((r) => r.text()).then((t) => seen.push(t), () => seen.push('blocked'));
          alert('a dialog that must not hang the page');
          Promise.all([
            grab('http://169.254.169.254/latest/meta-data/'),
            grab('${other.origin}/fetch'),
            grab('http://localhost:${new URL(other.origin).port}/by-name'),
            grab('/hop'),
          ]).then(() => { const p = document.createElement('p'); p.id = 'seen'; p.textContent = 'SEEN ' + seen.join(' '); document.body.append(p); });
          const img = new Image(); img.src = '${other.origin}/image.png';
          const own = new Image(); own.src = '/own-image.png';
          const font = new FontFace('Probe', 'url(/own-font.woff2)'); font.load().catch(() => {});
          const frame = document.createElement('iframe'); frame.src = '${other.origin}/frame'; document.body.append(frame);
          try { new WebSocket('ws://127.0.0.1:${new URL(other.origin).port}/ws'); } catch (e) {}
          location.href = '/download';`;
        return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(scriptedPage(tries));
      }
      res.writeHead(404).end();
    });
    fs.mkdirSync(path.join(leftBehind, 'Default'), { recursive: true });
    fs.symlinkSync(`${os.hostname()}-${2 ** 22 + 4321}`, path.join(leftBehind, 'SingletonLock'));
    renderer = new BrowserRenderer({
      executablePath: BROWSER,
      poolSize: 2,
      timeoutMs: 20_000,
      allowHosts: [new URL(site.origin).host],
    });
  });
  afterAll(async () => {
    fs.rmSync(leftBehind, { recursive: true, force: true });
    await renderer?.close();
    await Promise.all([site, other].filter(Boolean).map((s) => new Promise((resolve) => s.server.close(resolve))));
  });

  it('renders the text a script writes', async () => {
    expect(scriptedPage()).not.toContain(SCRIPTED_TEXT);
    const page = await renderer.render(`${site.origin}/scripted`);
    expect(page.html).toContain(SCRIPTED_TEXT);
    expect(page.finalUrl).toBe(`${site.origin}/scripted`);
    // The first launch swept the profile a stopped process left (beside the launch, so it is
    // waited for); the browser's own is in use.
    await until(() => !fs.existsSync(leftBehind), 5_000);
  });

  it('lets nothing the page tries reach a metadata address or another loopback port: fetches, a redirect, an image, a frame, a WebSocket', async () => {
    const page = await renderer.render(`${site.origin}/probe`);
    expect(page.html).toContain(SCRIPTED_TEXT);
    expect(page.html).toMatch(/SEEN blocked blocked blocked blocked/);
    expect(page.html).not.toContain('INTERNAL-SECRET');
    expect(otherSaw).toEqual([]);
    // The page itself asked for the redirect (allowed), whose hop to the other port was refused.
    expect(siteSaw).toContain('/hop');
    // Images and fonts are never loaded, even from the page's own site.
    expect(siteSaw.filter((p) => p.startsWith('/own-'))).toEqual([]);
  });

  it("refuses a download: nothing is saved, and the page is that URL's error", async () => {
    await expect(renderer.render(`${site.origin}/download`)).rejects.toThrow(/could not load/);
    const profile = (renderer as unknown as { profile: string }).profile;
    const saved = (dir: string) =>
      fs.existsSync(dir)
        ? fs
            .readdirSync(dir, { recursive: true })
            .map(String)
            .filter((f) => f.endsWith('x.bin'))
        : [];
    expect([...saved(profile), ...saved(path.join(os.homedir(), 'Downloads'))]).toEqual([]);
  });

  it('refuses a first URL the address policy refuses, before any browser request', async () => {
    await expect(renderer.render('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/refused/);
    await expect(renderer.render(`${other.origin}/direct`)).rejects.toThrow(/refused/);
    expect(otherSaw).toEqual([]);
  });

  it('dials everything through the guarded proxy: a name only its resolver knows loads, and a name rebound to loopback after the check reaches nothing', async () => {
    const sitePort = Number(new URL(site.origin).port);
    const otherPort = Number(new URL(other.origin).port);
    let rebinds = 0;
    const resolver = async (host: string) => {
      if (host === 'site.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'rebind.test') return [{ address: rebinds++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const named = new BrowserRenderer({
      executablePath: BROWSER,
      poolSize: 1,
      timeoutMs: 20_000,
      allowHosts: [`site.test:${sitePort}`],
      resolver,
    });
    const rebound = `fetch('http://rebind.test:${otherPort}/rebound').then((r) => r.text(), () => 'blocked').then((t) => { const p = document.createElement('p'); p.textContent = 'REBOUND ' + t; document.body.append(p); });`;
    siteRoutes.set('/rebinding', scriptedPage(rebound));
    try {
      const page = await named.render(`http://site.test:${sitePort}/rebinding`);
      expect(page.html).toContain(SCRIPTED_TEXT);
      expect(page.html).toMatch(/REBOUND (blocked|<)/);
      expect(page.html).not.toContain('INTERNAL-SECRET');
      expect(rebinds).toBeGreaterThanOrEqual(2); // checked when let through, and again when dialled
      expect(otherSaw).toEqual([]);
    } finally {
      await named.close();
    }
  });

  it('replaces a browser that crashed', async () => {
    const browser = await (
      renderer as unknown as { browser: Promise<{ process(): { kill(signal: string): void } | null }> }
    ).browser;
    browser.process()!.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await renderer.render(`${site.origin}/scripted`)).html).toContain(SCRIPTED_TEXT);
  });

  it('bounds a render as a whole: a page spinning in a script is given up at the deadline, and the next page renders', async () => {
    siteRoutes.set(
      '/spin',
      '<!doctype html><html><body><p>Thin text.</p><script>setTimeout(() => { for (;;) {} })</script></body></html>',
    );
    // Spinning only once loaded: the wait is then on reading the DOM (page.content()).
    siteRoutes.set(
      '/spin-after-load',
      "<!doctype html><html><body><p>Thin text.</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50))</script></body></html>",
    );
    // A deadline small enough to wait for, large enough for a normal page on a loaded machine (a
    // trivial page took over 5 s on two cores while the e2e suites ran their own browsers).
    const bounded = new BrowserRenderer({
      executablePath: BROWSER,
      poolSize: 1,
      timeoutMs: 8_000,
      allowHosts: [new URL(site.origin).host],
    });
    try {
      for (const spin of ['/spin', '/spin-after-load']) {
        const started = Date.now();
        await expect(bounded.render(`${site.origin}${spin}`)).rejects.toThrow(/RENDER_TIMEOUT_MS \(8000 ms\)/);
        expect(Date.now() - started).toBeLessThan(8_000 + 6_000);
        const next = Date.now();
        expect((await bounded.render(`${site.origin}/scripted`)).html).toContain(SCRIPTED_TEXT);
        expect(Date.now() - next).toBeLessThan(8_000 + 6_000);
      }
    } finally {
      await bounded.close();
    }
  });

  it('kills and replaces a browser whose page does not close after the deadline, and the next page renders', async () => {
    const bounded = new BrowserRenderer({
      executablePath: BROWSER,
      poolSize: 1,
      timeoutMs: 8_000,
      allowHosts: [new URL(site.origin).host],
    });
    siteRoutes.set(
      '/spin-after-load',
      "<!doctype html><html><body><p>Thin text.</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50))</script></body></html>",
    );
    try {
      expect((await bounded.render(`${site.origin}/scripted`)).html).toContain(SCRIPTED_TEXT);
      type Handle = {
        process(): {
          exitCode: number | null;
          signalCode: string | null;
          once(event: 'exit', listener: () => void): void;
        } | null;
        createBrowserContext(): Promise<{ close(): Promise<void> }>;
      };
      const first = await (bounded as unknown as { browser: Promise<Handle> }).browser;
      // A context whose close never answers, as one held by a renderer spinning in a script can.
      const create = first.createBrowserContext.bind(first);
      first.createBrowserContext = async () =>
        Object.assign(await create(), { close: () => new Promise<void>(() => undefined) });
      const child = first.process()! as ReturnType<Handle['process']> & { pid: number };
      const firstProfile = (bounded as unknown as { profile: string }).profile;
      expect(fs.existsSync(firstProfile)).toBe(true);
      const exited = new Promise<void>((resolve) => child.once('exit', resolve));
      const started = Date.now();
      await expect(bounded.render(`${site.origin}/spin-after-load`)).rejects.toThrow(/RENDER_TIMEOUT_MS/);
      expect(Date.now() - started).toBeLessThan(8_000 + 5_000);
      await exited;
      expect(child.signalCode).toBe('SIGKILL');
      // Every process of the killed browser, the spinning renderer included, is gone, and so is
      // its profile (removed apart from the next launch, which has a profile of its own).
      await until(() => processesInGroup(child.pid).length === 0 && !fs.existsSync(firstProfile), 10_000);
      expect((await bounded.render(`${site.origin}/scripted`)).html).toContain(SCRIPTED_TEXT);
      expect(await (bounded as unknown as { browser: Promise<Handle> }).browser).not.toBe(first);
    } finally {
      await bounded.close();
    }
  });

  it('refuses a render beyond the wait queue, naming the bound', async () => {
    siteRoutes.set(
      '/slowish',
      scriptedPage("fetch('/slow-data').then((r) => r.text()).then((t) => { document.body.append(t); });"),
    );
    const queued = new BrowserRenderer({
      executablePath: BROWSER,
      poolSize: 1,
      queueMax: 1,
      timeoutMs: 10_000,
      allowHosts: [new URL(site.origin).host],
    });
    try {
      const outcomes = await Promise.allSettled([1, 2, 3].map((n) => queued.render(`${site.origin}/slowish?${n}`)));
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect(String(refused[0]!.reason.message)).toMatch(/RENDER_QUEUE_MAX=1/);
      expect(refused[0]!.reason.code).toBe('overloaded');
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    } finally {
      await queued.close();
    }
  });

  it('renders every page in a context of its own: cookies one render sets are not sent by the next render of the site', async () => {
    siteRoutes.set('/set-cookies', scriptedPage("document.cookie = 'scripted=from-script; path=/';"));
    await renderer.render(`${site.origin}/set-cookies`);
    await renderer.render(`${site.origin}/check-cookies`);
    expect(cookiesSeen.get('/set-cookies')).toBeUndefined();
    expect(cookiesSeen.has('/check-cookies')).toBe(true);
    expect(cookiesSeen.get('/check-cookies')).toBeUndefined();
  });

  it("says the browser could not start when it cannot (a sandbox refused, a broken binary): that URL's error", async () => {
    const broken = new BrowserRenderer({ executablePath: '/bin/false', allowHosts: [new URL(site.origin).host] });
    try {
      await expect(broken.render(`${site.origin}/scripted`)).rejects.toMatchObject({
        name: 'FetchError',
        message: expect.stringMatching(/the browser could not start/),
      });
    } finally {
      await broken.close();
    }
  });

  it('says no browser is available when none is', async () => {
    const none = new BrowserRenderer({ executablePath: '/nonexistent/chromium' });
    expect(none.available).toBe(false);
    await expect(none.render(`${site.origin}/scripted`)).rejects.toThrow(
      /no(ne)? .*browser|browser .*not available|none is available/,
    );
  });
});
