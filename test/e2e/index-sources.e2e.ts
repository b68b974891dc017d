import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
    fs.writeFileSync(path.join(dir, 'notes', 'owl-boxes.md'), '# Building owl boxes\n\nA barn owl box needs an entrance of 15 by 15 centimetres and a floor of at least 40 by 60 centimetres.\n');
    const svc = await startService('standalone', { LOCAL_INDEX_DIR: dir });
    try {
      expect((await search(svc, ['kestrel migration count'])).results[0].url).toBe('https://birds.example.net/kestrel-survey');
      expect((await search(svc, ['barn owl box entrance'])).results[0].title).toBe('Building owl boxes');
      expect((await search(svc, ['webhook signature'])).results).toHaveLength(0);
    } finally {
      await svc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
