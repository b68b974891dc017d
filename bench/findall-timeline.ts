/**
 * A FindAll run's timeline, for finding where its time goes: a preview and a full run of one
 * query, each on a fresh service whose registry pages answer in 100 ms (as bench:findall's cold
 * rows), printed as each event's time after the request. Rerun after `npm run build`:
 * node dist/bench/findall-timeline.js ["query"]
 */
import { startRegistryService } from '../test/support/registry-web';
import { runMain } from './bench-util';

async function timeline(query: string, body: Record<string, unknown>): Promise<void> {
  const slow = await startRegistryService('standalone', {
    delayMs: 100,
    env: { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' },
  });
  try {
    const auth = { Authorization: `Bearer ${slow.svc.demoKey}`, 'Content-Type': 'application/json' };
    const origin = new URL(slow.web.urls()[0]!).origin;
    await fetch(`${slow.svc.baseUrl}/v1/extract`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ urls: [`${origin}/about`] }),
    }).then((r) => r.text());
    const started = Date.now();
    const response = await fetch(`${slow.svc.baseUrl}/v1/findall`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ query, limit: 100, wait_seconds: 120, ...body }),
    });
    const view = (await response.json()) as { findall_id: string };
    const total = Date.now() - started;
    const history = (await (
      await fetch(`${slow.svc.baseUrl}/v1/findall/runs/${view.findall_id}/history`, { headers: auth })
    ).json()) as { events: { type: string; created?: string; recorded_at?: string; at?: string }[] };
    process.stdout.write(`\n${JSON.stringify(body)}: ${total} ms\n`);
    let previous = started;
    for (const event of history.events) {
      const at = Date.parse(event.created ?? event.recorded_at ?? event.at ?? '');
      process.stdout.write(
        `  +${String(at - started).padStart(5)} ms (${String(at - previous).padStart(4)})  ${event.type}\n`,
      );
      previous = at;
    }
  } finally {
    await slow.stop();
  }
}

runMain(async () => {
  const query = process.argv[2] ?? 'companies headquartered in Berlin';
  await timeline(query, { generator: 'preview' });
  await timeline(query, {});
});
