import type { Readable } from 'node:stream';
import axios, { type AxiosInstance } from 'axios';
import { Webhook } from 'standardwebhooks';
import {
  AllowHosts,
  BlockedAddressError,
  checkUrl,
  GuardedHttpAgent,
  GuardedHttpsAgent,
  type Resolver,
} from '@app/fetch';

export const WEBHOOK_USER_AGENT = 'WebResearchWebhooks/1.0 (+self-hosted web research service)';

export interface SignedPost {
  url: string;
  webhookId: string;
  body: string;
  /** Every secret in force: one signature each, space-separated (Standard Webhooks rotation). */
  secrets: string[];
  /** The signed `webhook-timestamp`. */
  at: Date;
}

/** What one attempt came to; `aborted` = cut by shutdown, so nothing is known and nothing is recorded. */
export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'failed'; status: number | null; error: string }
  | { kind: 'blocked'; error: string }
  | { kind: 'aborted' };

export const signatureHeader = (secrets: readonly string[], webhookId: string, at: Date, body: string): string =>
  secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(' ');

/** axios wraps socket errors (`cause`); a sync throw from the agent arrives bare. */
function rootCause(error: unknown): Error {
  let e: unknown = error;
  while (e instanceof Error && e.cause instanceof Error && !(e instanceof BlockedAddressError)) e = e.cause;
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * POSTs signed webhooks through the same SSRF guard as fetched pages: the URL is checked before
 * any socket exists and every address dialled is checked after DNS. Redirects are not followed
 * (a 3xx is a failed attempt), so a receiver cannot bounce us to an internal address.
 */
export class WebhookSender {
  private readonly allow: AllowHosts;
  private readonly httpAgent: GuardedHttpAgent;
  private readonly httpsAgent: GuardedHttpsAgent;
  private readonly http: AxiosInstance;

  constructor(
    private readonly options: {
      allowHosts: readonly string[];
      timeoutMs: number;
      userAgent?: string;
      resolver?: Resolver;
    },
  ) {
    this.allow = new AllowHosts(options.allowHosts);
    const guard = { allowHosts: this.allow, resolver: options.resolver, connectTimeoutMs: options.timeoutMs };
    this.httpAgent = new GuardedHttpAgent(guard);
    this.httpsAgent = new GuardedHttpsAgent(guard);
    this.http = axios.create({
      adapter: 'http',
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      proxy: false, // an environment proxy would dial on our behalf, past the guard
      maxRedirects: 0,
      responseType: 'stream', // only the status matters: the body is never read
      validateStatus: () => true,
      transformRequest: [(data: unknown) => data], // the body is sent byte for byte as signed
    });
  }

  async send(post: SignedPost, shutdown: AbortSignal): Promise<AttemptOutcome> {
    const verdict = checkUrl(post.url, this.allow);
    if (!verdict.ok) return { kind: 'blocked', error: `refused: ${verdict.reason}` };
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const res = await this.http.post<Readable>(verdict.url.href, post.body, {
        signal: AbortSignal.any([shutdown, deadline]),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': this.options.userAgent ?? WEBHOOK_USER_AGENT,
          'webhook-id': post.webhookId,
          'webhook-timestamp': String(Math.floor(post.at.getTime() / 1000)),
          'webhook-signature': signatureHeader(post.secrets, post.webhookId, post.at, post.body),
        },
      });
      res.data.destroy();
      return res.status >= 200 && res.status < 300
        ? { kind: 'delivered', status: res.status }
        : { kind: 'failed', status: res.status, error: `HTTP ${res.status}` };
    } catch (error) {
      if (shutdown.aborted) return { kind: 'aborted' };
      if (deadline.aborted)
        return { kind: 'failed', status: null, error: `timed out after ${this.options.timeoutMs} ms` };
      const cause = rootCause(error);
      // request-filtering-agent's own refusal says "... is not allowed"; ours is a BlockedAddressError.
      if (cause instanceof BlockedAddressError || /DNS lookup .* is not allowed/.test(cause.message)) {
        return { kind: 'blocked', error: `refused: ${cause.message}` };
      }
      const code = (cause as NodeJS.ErrnoException).code;
      return { kind: 'failed', status: null, error: cause.message || code || 'connection failed' };
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
