import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import { AllowHosts, bareHost, checkUrl, classifyAddress, defaultPort, isIpLiteral } from './address-policy';
import { FetchError } from './fetcher.port';
import { type Resolver, systemResolver } from './guarded-agent';
import { GuardedProxy } from './guarded-proxy';
import { PROFILE_PREFIX, sweepStaleProfiles } from './render-profiles';

export interface BrowserRendererOptions {
  /** The Chromium to drive; absent or missing on disk, nothing is rendered (`available` is false). */
  executablePath?: string;
  /** Pages rendered at once (default 2). */
  poolSize?: number;
  /**
   * RENDER_TIMEOUT_MS: one deadline per page from navigation to its content (load, scripts,
   * settling and reading the DOM); default 15 s. At the deadline the page's context is closed,
   * and its browser killed (relaunched on next use) when it does not close promptly.
   */
  timeoutMs?: number;
  /** RENDER_QUEUE_MAX: renders waiting for a free page at most (default 16); one more is that URL's error. */
  queueMax?: number;
  /** FETCH_ALLOW_HOSTS: the same exemptions as the fetcher's, per host and port. */
  allowHosts?: readonly string[];
  resolver?: Resolver;
  /** Cap on the rendered HTML (default 5 MiB). */
  maxBytes?: number;
  /** Where the warning of a browser run without its sandbox (as root) goes; default the console. */
  log?: { warn(message: string): void };
  /** Tests: whether this process runs as root (default `process.getuid() === 0`). */
  root?: boolean;
}

/** What the caller learns of a render as it happens. */
export interface RenderHooks {
  /** Called once the render has a page and starts: from then on it uses the browser, whatever its outcome. */
  started?: () => void;
}

export interface RenderedPage {
  finalUrl: string;
  html: string;
}

/** A page already fetched (through the guarded fetcher): the browser is given it rather than fetching it again. */
export interface FetchedDocument {
  body: string;
  contentType: string;
}

const BASE_FLAGS = [
  '--headless',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
];
/**
 * WebRTC's UDP goes around the proxy (and so around the address policy): off in the browser
 * itself, not only hidden from page scripts. Both spellings: the policy switch Chromium reads
 * (`force-`) and the older one.
 */
const WEBRTC_FLAGS = [
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--enforce-webrtc-ip-permission-check',
];

/**
 * The browser's command line. Its sandbox stays on unless this process is root, where Chromium
 * refuses to start with it (`--no-sandbox` then; containers should run as a non-root user, see
 * k8s/).
 */
export const launchFlags = (options: { root: boolean; proxy?: string }): string[] => [
  ...BASE_FLAGS,
  ...WEBRTC_FLAGS,
  ...(options.root ? ['--no-sandbox'] : []),
  ...(options.proxy ? [`--proxy-server=${options.proxy}`, '--proxy-bypass-list=<-loopback>'] : []),
];

const runsAsRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;
let warnedNoSandbox = false;
/** Profiles crashed processes left behind are swept once a process, before its first launch. */
let swept = false;
/** How long a context or page has to close once given up, before its browser is killed. */
const CLOSE_GRACE_MS = 2_000;
// Not loaded: they add no text, and every request is one more chance to reach what it should not.
const SKIPPED_TYPES = new Set(['image', 'media', 'font', 'texttrack', 'manifest', 'ping', 'cspviolationreport']);
/**
 * Channels request interception does not see (WebSocket, WebRTC, WebTransport) and workers whose
 * requests may not pass through it: removed before any script of the page runs.
 */
const UNGUARDED_APIS = `for (const name of ['WebSocket', 'WebTransport', 'RTCPeerConnection', 'webkitRTCPeerConnection', 'Worker', 'SharedWorker']) {
  try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
}
try { if (navigator.serviceWorker) Object.defineProperty(navigator, 'serviceWorker', { value: undefined }); } catch {}`;

/**
 * Pages whose text only exists after their scripts run, rendered in a headless Chromium
 * (`puppeteer-core`; nothing downloads a browser). Every request the page makes, redirects
 * included, passes the fetcher's address policy twice: intercepted before it leaves (private,
 * loopback, link-local and metadata addresses aborted, by literal and by DNS answer, unless
 * FETCH_ALLOW_HOSTS names that host and port), then dialled by the guarded proxy (see
 * guarded-proxy.ts), which checks the address it connects to. Downloads are refused, dialogs dismissed, images, media and fonts
 * never loaded. One browser, launched on first use with a fresh profile, replaced when it
 * crashes; `poolSize` pages at most at once, `queueMax` renders waiting at most. Every render
 * has its own browser context (no cookie, storage or cache of one render is seen by the next)
 * and one deadline, `timeoutMs`, from navigation to content: no CDP call outlives it.
 */
export class BrowserRenderer {
  private readonly allow: AllowHosts;
  private readonly resolver: Resolver;
  private readonly timeoutMs: number;
  private readonly poolSize: number;
  private readonly maxBytes: number;
  private readonly queueMax: number;
  private readonly root: boolean;
  private browser: Promise<Browser> | null = null;
  /** The browser `browser` resolved to, while it is the one in use. */
  private current: Browser | null = null;
  private readonly sessions = new WeakMap<Browser, CDPSession>();
  private proxy: GuardedProxy | null = null;
  private proxyAddress: string | null = null;
  /** The profile of the browser in use (each browser has its own; see start). */
  private profile: string | null = null;
  /** Profiles of browsers launched and not yet removed, removed once their browser has exited. */
  private readonly profiles = new Set<string>();
  private readonly removals = new Set<Promise<void>>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: BrowserRendererOptions) {
    this.allow = new AllowHosts(options.allowHosts);
    this.resolver = options.resolver ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.poolSize = Math.max(1, options.poolSize ?? 2);
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.queueMax = Math.max(0, options.queueMax ?? 16);
    this.root = options.root ?? runsAsRoot();
  }

  /** Whether a browser is configured and present on the machine. */
  get available(): boolean {
    return (
      !!this.options.executablePath && fs.existsSync(this.options.executablePath) && (this.options.poolSize ?? 2) > 0
    );
  }

  /**
   * The page as the browser has it once its scripts have run and its network has settled, or a
   * FetchError: `timeout` when the deadline passed, `overloaded` when `queueMax` renders already wait.
   */
  async render(url: string, fetched?: FetchedDocument, hooks?: RenderHooks): Promise<RenderedPage> {
    if (!this.available)
      throw new FetchError(
        'unsupported_type',
        url,
        `${url}: rendering needs a browser and none is available (install one: apt-get install chromium, or set BROWSER_PATH)`,
      );
    const first = checkUrl(url, this.allow);
    if (!first.ok)
      throw new FetchError(
        first.code,
        url,
        `${url}: ${first.code === 'blocked_address' ? 'refused: ' : ''}${first.reason}`,
      );
    await this.acquire(url);
    try {
      const browser = await this.launch().catch((error: unknown) => {
        throw new FetchError(
          'unsupported_type',
          url,
          `${url}: the browser could not start (${(error as Error).message.split('\n')[0]})`,
        );
      });
      hooks?.started?.();
      return await this.bounded(browser, first.url.href, fetched);
    } finally {
      this.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    this.current = null;
    if (browser) await browser.then((b) => b.close()).catch(() => undefined);
    await this.proxy?.close();
    this.proxy = null;
    this.proxyAddress = null;
    await Promise.all([...[...this.profiles].map((dir) => this.removeProfile(dir)), ...this.removals]);
  }

  /**
   * One render in a context of its own, raced against the deadline. Whatever the outcome the
   * context is closed; one that does not close within CLOSE_GRACE_MS (a renderer spinning in a
   * script can hold it) takes its browser with it: killed, and relaunched by the next render.
   */
  private async bounded(browser: Browser, url: string, fetched?: FetchedDocument): Promise<RenderedPage> {
    const deadline = Date.now() + this.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const context = browser.createBrowserContext();
    const work = context.then(async (ctx) => {
      // Downloads are refused per context: the browser-wide setting covers its default context only.
      await this.sessions
        .get(browser)
        ?.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId: ctx.id });
      return this.load(await ctx.newPage(), url, deadline, fetched);
    });
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.expired(url)), this.timeoutMs);
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
      const closed = await Promise.race([
        context
          .then((ctx) => ctx.close())
          .then(
            () => true,
            () => false,
          ),
        sleep(CLOSE_GRACE_MS).then(() => false),
      ]);
      if (!closed) this.discard(browser);
    }
  }

  private expired(url: string): FetchError {
    return new FetchError(
      'timeout',
      url,
      `${url}: rendering did not finish within RENDER_TIMEOUT_MS (${this.timeoutMs} ms); the page was closed`,
    );
  }

  /** A browser that no longer answers in time: killed; the next render launches another. */
  private discard(browser: Browser): void {
    // At once, so that no render in between is given the browser being killed.
    if (this.current === browser) {
      this.current = null;
      this.browser = null;
    }
    const child = browser.process();
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      // The whole process group (the renderer spinning in a script is a child of the browser), so
      // that none of its processes outlives it: puppeteer skips its own group kill once the
      // browser's main process has exited.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
    void browser.close().catch(() => undefined);
  }

  private async load(page: Page, url: string, deadline: number, fetched?: FetchedDocument): Promise<RenderedPage> {
    await page.setBypassServiceWorker(true);
    await page.evaluateOnNewDocument(UNGUARDED_APIS);
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    await page.setRequestInterception(true);
    // The page as already fetched answers the browser's first request for it: one GET a page read.
    let served = !fetched;
    page.on('request', (request) => {
      if (!served && request.isNavigationRequest() && request.url() === url) {
        served = true;
        void request
          .respond({ status: 200, contentType: fetched!.contentType, body: fetched!.body })
          .catch(() => undefined);
        return;
      }
      void this.guard(request);
    });
    try {
      await page.goto(url, { waitUntil: 'load', timeout: Math.max(100, deadline - Date.now()) });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw this.expired(url);
      throw new FetchError(
        'unreachable',
        url,
        `${url}: the browser could not load the page (${(error as Error).message.split('\n')[0]})`,
      );
    }
    // Scripts that fetch their text after load: wait for the network to settle, within the deadline.
    await page
      .waitForNetworkIdle({ idleTime: 300, timeout: Math.max(100, deadline - Date.now()) })
      .catch(() => undefined);
    const html = await page.content();
    if (Buffer.byteLength(html) > this.maxBytes)
      throw new FetchError('too_large', url, `${url}: the rendered page exceeds ${this.maxBytes} bytes`);
    return { finalUrl: page.url(), html };
  }

  /** Lets a request go only when the address policy allows its URL and every address its name resolves to. */
  private async guard(request: HTTPRequest): Promise<void> {
    try {
      if (SKIPPED_TYPES.has(request.resourceType()) || !(await this.allowed(request.url())))
        return await request.abort('blockedbyclient');
      await request.continue();
    } catch {
      // The page went away meanwhile: nothing to answer.
    }
  }

  private async allowed(raw: string): Promise<boolean> {
    if (raw.startsWith('data:') || raw.startsWith('blob:') || raw === 'about:blank') return true;
    const verdict = checkUrl(raw, this.allow);
    if (!verdict.ok) return false;
    const host = bareHost(verdict.url.hostname);
    if (this.allow.matches(host, defaultPort(verdict.url)) || isIpLiteral(host)) return true;
    const answers = await this.resolver(host).catch(() => []);
    return answers.length > 0 && answers.every((a) => classifyAddress(a.address) === 'public');
  }

  private launch(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the browser pool is closed'));
    if (!this.browser) {
      const launched = this.start();
      this.browser = launched;
      launched.then(
        // A crashed or killed browser is replaced by the next render.
        (browser) => {
          if (this.browser === launched) this.current = browser;
          browser.on('disconnected', () => {
            if (this.browser !== launched) return;
            this.browser = null;
            this.current = null;
          });
        },
        () => this.browser === launched && (this.browser = null),
      );
    }
    return this.browser;
  }

  /**
   * A browser on a fresh profile whose every connection goes through the guarded proxy (loopback
   * included: `<-loopback>` drops Chromium's own exemption for it), so addresses are checked
   * again when dialled, after DNS.
   */
  private async start(): Promise<Browser> {
    if (!swept) {
      swept = true;
      // Beside the launch, not before it: nothing here waits for the temporary directory's listing.
      void sweepStaleProfiles().then((removed) => {
        if (removed.length > 0)
          (this.options.log ?? console).warn(
            `removed ${removed.length} browser profile(s) that stopped processes left in ${os.tmpdir()}`,
          );
      });
    }
    // A profile of its own: the one of a browser just killed may still be written by its last
    // processes, and is removed once they have exited, apart from this launch.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), PROFILE_PREFIX));
    this.profiles.add(profile);
    try {
      const browser = await this.startOn(profile);
      this.profile = profile;
      const child = browser.process();
      if (child && child.exitCode === null && child.signalCode === null)
        child.once('exit', () => void this.removeProfile(profile));
      else void this.removeProfile(profile);
      return browser;
    } catch (error) {
      await this.removeProfile(profile);
      throw error;
    }
  }

  private async startOn(profile: string): Promise<Browser> {
    this.proxy ??= new GuardedProxy(this.allow, this.options.resolver);
    // One proxy for the renderer's life: a replaced browser uses it too.
    this.proxyAddress ??= await this.proxy.start();
    const proxy = this.proxyAddress;
    if (this.root && !warnedNoSandbox) {
      warnedNoSandbox = true;
      (this.options.log ?? console).warn(
        'this process runs as root: the browser runs without its sandbox (--no-sandbox); run as a non-root user to keep it',
      );
    }
    // Loaded with the first browser rather than with the process (some 0.1 s a boot need not pay).
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({
      executablePath: this.options.executablePath,
      headless: true,
      args: launchFlags({ root: this.root, proxy }),
      // No CDP call may wait long past a render's deadline (puppeteer's default is 180 s).
      protocolTimeout: Math.max(5_000, 2 * this.timeoutMs),
      userDataDir: profile,
      // Over a pipe, the browser exits when this process does, however it ends.
      pipe: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    try {
      // Downloads refused for every page of this browser.
      const cdp = await browser.target().createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'deny' });
      this.sessions.set(browser, cdp);
      return browser;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Best effort, retried: a browser's last processes can still be writing when it exits. A
   * profile that cannot be removed is reported and left in the temporary directory; it never
   * fails a render.
   */
  private async removeProfile(dir: string): Promise<void> {
    if (!this.profiles.delete(dir)) return;
    if (this.profile === dir) this.profile = null;
    const removal = fs.promises
      .rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
      .catch((error: unknown) =>
        (this.options.log ?? console).warn(
          `the browser profile ${dir} could not be removed: ${(error as Error).message}`,
        ),
      );
    this.removals.add(removal);
    await removal;
    this.removals.delete(removal);
  }

  private acquire(url: string): Promise<void> {
    if (this.active < this.poolSize) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queueMax) {
      return Promise.reject(
        new FetchError(
          'overloaded',
          url,
          `${url}: not rendered: ${this.poolSize} pages are rendering and ${this.waiting.length} more are waiting, the most allowed (RENDER_QUEUE_MAX=${this.queueMax})`,
        ),
      );
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
