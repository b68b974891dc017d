import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { fixtureSeeds, startFixtureWeb } from '../support/fixture-web';
import { freePort } from '../support/free-port';
import { bearer, type RunningService, startService } from '../support/service-process';

jest.setTimeout(60_000);

const search = async (svc: RunningService, queries: string[]) => {
  const response = await fetch(`${svc.baseUrl}/v1/search`, {
    method: 'POST',
    headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
    body: JSON.stringify({ queries, limit: 5 }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { results: { url: string; title: string }[]; warnings: string[] };
};

describe('what the local index serves, with no step after boot', () => {
  it('a fresh start answers questions about the shipped demo corpus', async () => {
    const svc = await startService('standalone');
    try {
      const body = await search(svc, ['verify webhook signature']);
      expect(body.results[0].url).toBe('https://docs.webresearch.example/webhooks');
      const energy = await search(svc, ['sodium-ion battery cathode']);
      expect(energy.results.length).toBeGreaterThan(1);
      expect(energy.results.slice(0, 3).some((r) => /sodium/i.test(r.title))).toBe(true);
    } finally {
      await svc.stop();
    }
  });

  it('LOCAL_INDEX_DIR: a folder of pages is searchable after boot', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-pages-'));
    fs.writeFileSync(
      path.join(dir, 'kestrel.html'),
      `<!doctype html><html lang="en"><head><title>Kestrel migration survey 2026</title>
       <link rel="canonical" href="https://birds.example.net/kestrel-survey"></head>
       <body><nav>Home · Surveys · Contact</nav><main><h1>Kestrel migration survey 2026</h1>
       <p>Volunteers counted 4,812 kestrels crossing the Falsterbo peninsula between August and October, the highest autumn count since records began.</p></main></body></html>`,
    );
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(
      path.join(dir, 'notes', 'owl-boxes.md'),
      '# Building owl boxes\n\nA barn owl box needs an entrance of 15 by 15 centimetres and a floor of at least 40 by 60 centimetres.\n',
    );
    const svc = await startService('standalone', { LOCAL_INDEX_DIR: dir });
    try {
      expect((await search(svc, ['kestrel migration count'])).results[0].url).toBe(
        'https://birds.example.net/kestrel-survey',
      );
      expect((await search(svc, ['barn owl box entrance'])).results[0].title).toBe('Building owl boxes');
      expect((await search(svc, ['webhook signature'])).results).toHaveLength(0);
    } finally {
      await svc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Polls the search until `check` holds (or 10 s pass), returning the last answer. */
async function eventually(svc: RunningService, query: string, check: (urls: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const urls = (await search(svc, [query])).results.map((r) => r.url);
    if (check(urls) || Date.now() > deadline) return urls;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const page = (url: string, title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><link rel="canonical" href="${url}"></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

describe('readiness waits for the index', () => {
  it('/readyz says the search index is being built while the seeds are first crawled; a deep run right after completes', async () => {
    // A slow web (every answer 30 ms late): the first crawl of the seeds takes seconds.
    const web = await startFixtureWeb(undefined, { delayMs: 30 });
    const port = await freePort();
    const seen: { status: number; search?: { ok: boolean; error?: string } }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const answer = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          async (r) => ({ status: r.status, search: ((await r.json()) as any).checks?.bus?.search }),
          () => null,
        );
        if (answer) seen.push(answer);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let svc: RunningService | undefined;
    try {
      svc = await startService('standalone', {
        PORT: String(port),
        FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
        LOCAL_INDEX_SEEDS: fixtureSeeds(web),
      });
      polling = false;
      await poller;
      const building = seen.filter((answer) => answer.status === 503 && answer.search?.ok === false);
      expect(building.length).toBeGreaterThan(0);
      expect(building[0]!.search!.error).toBe('search is starting: waiting for the search index');
      const ready = await fetch(`${svc.baseUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as any).checks.bus.search.ok).toBe(true);
      // Before, /readyz said ready at once, and a run's searches waited on the build past the bus's deadline.
      const response = await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({ depth: 'deep', queries: ['battery'], max_fetches: 2 }),
      });
      expect(response.status).toBe(202);
      const id = ((await response.json()) as { search_id: string }).search_id;
      let view: { status: string; error: string | null; results: unknown[] };
      for (;;) {
        view = await (await fetch(`${svc.baseUrl}/v1/searches/${id}`, { headers: bearer(svc.demoKey) })).json();
        if (!['queued', 'running'].includes(view.status)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect({ status: view.status, error: view.error }).toEqual({ status: 'completed', error: null });
      expect(view.results.length).toBeGreaterThan(0);
    } finally {
      polling = false;
      await poller;
      await svc?.stop();
      await web.stop();
    }
  });
});

describe('the local index follows its folder while the service runs', () => {
  it('an edited page is searchable with its new text, and a deleted one is gone, within 10 s and with no restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-live-pages-'));
    fs.writeFileSync(
      path.join(dir, 'ferry.html'),
      page(
        'https://harbour.example/ferry',
        'Ferry timetable',
        'The harbour ferry leaves every twenty minutes from the north pier.',
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'bridge.html'),
      page('https://harbour.example/bridge', 'Swing bridge', 'The swing bridge opens for tall ships on the hour.'),
    );
    const svc = await startService('standalone', { LOCAL_INDEX_DIR: dir });
    try {
      expect((await search(svc, ['harbour ferry north pier'])).results[0].url).toBe('https://harbour.example/ferry');
      const edited = Date.now();
      fs.writeFileSync(
        path.join(dir, 'ferry.html'),
        page(
          'https://harbour.example/ferry',
          'Ferry suspended',
          'The ferry is suspended while the charging berth is rebuilt.',
        ),
      );
      expect(
        await eventually(svc, 'charging berth rebuilt', (urls) => urls[0] === 'https://harbour.example/ferry'),
      ).toEqual(['https://harbour.example/ferry']);
      expect(Date.now() - edited).toBeLessThan(10_000);
      expect((await search(svc, ['north pier twenty minutes'])).results).toHaveLength(0);
      const deleted = Date.now();
      fs.rmSync(path.join(dir, 'bridge.html'));
      expect(await eventually(svc, 'swing bridge tall ships', (urls) => urls.length === 0)).toEqual([]);
      expect(Date.now() - deleted).toBeLessThan(10_000);
    } finally {
      await svc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('search replicas (cluster, REPLICAS=search=2)', () => {
  it('each replica keeps its own copy of the index, built from the same folder, and both answer', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-replica-pages-'));
    fs.writeFileSync(
      path.join(dir, 'kestrel.html'),
      page(
        'https://birds.example.net/kestrel',
        'Kestrel survey',
        'Volunteers counted 4,812 kestrels crossing the peninsula this autumn.',
      ),
    );
    const svc = await startService('cluster', { REPLICAS: 'search=2', LOCAL_INDEX_DIR: dir });
    try {
      for (let i = 0; i < 200 && svc.servicePidHistory('search').length < 2; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(svc.servicePidHistory('search')).toHaveLength(2);
      // NATS hands requests to the replicas in turn: several searches reach both.
      for (let i = 0; i < 6; i++)
        expect((await search(svc, ['kestrel survey volunteers'])).results[0]?.url).toBe(
          'https://birds.example.net/kestrel',
        );
      const copies = fs.readdirSync(path.join(svc.dataDir, 'index')).sort();
      expect(copies).toEqual(['search-1', 'search-2']);
      for (const copy of copies)
        expect(fs.existsSync(path.join(svc.dataDir, 'index', copy, 'local-index.db'))).toBe(true);
      // A change reaches both copies: each watches the folder itself.
      fs.writeFileSync(
        path.join(dir, 'owl.html'),
        page('https://birds.example.net/owl', 'Owl boxes', 'A barn owl box needs an entrance of fifteen centimetres.'),
      );
      for (let i = 0; i < 6; i++)
        expect(
          await eventually(svc, 'barn owl box entrance', (urls) => urls[0] === 'https://birds.example.net/owl'),
        ).toEqual(['https://birds.example.net/owl']);
      // Each copy holds it, whichever replica answered above.
      for (const copy of copies) {
        const db = new Database(path.join(svc.dataDir, 'index', copy, 'local-index.db'), { readonly: true });
        try {
          const deadline = Date.now() + 10_000;
          let found = db.prepare('SELECT url FROM docs ORDER BY url').pluck().all();
          while (found.length < 2 && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 100));
            found = db.prepare('SELECT url FROM docs ORDER BY url').pluck().all();
          }
          expect(found).toEqual(['https://birds.example.net/kestrel', 'https://birds.example.net/owl']);
        } finally {
          db.close();
        }
      }
    } finally {
      await svc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
