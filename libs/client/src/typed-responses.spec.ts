import { WebResearch } from './client';
import { loopback } from './testing/loopback';

/**
 * Every answer of the client is typed from the OpenAPI document: reading a FindAll candidate's
 * field and a monitor's cadence compiles, and a misspelt field does not. `tsc --noEmit` (npm test
 * runs it over this file) checks each `@ts-expect-error` is still an error; jest reads the values.
 */
describe('typed responses', () => {
  it("reads a FindAll candidate's match status and a monitor's cadence; misspelt fields do not compile", async () => {
    const server = await loopback((req, res) => {
      const body = req.url!.startsWith('/v1/monitors/')
        ? { id: 'm1', cadence: 'daily', status: 'active' }
        : {
            findall_id: 'f1',
            status: 'completed',
            candidates: [{ candidate_id: 'c1', name: 'Kestrel Forge', match_status: 'matched', output: {} }],
          };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    try {
      const client = new WebResearch({ baseURL: server.url, apiKey: 'wr_abcdefghijkl_secret' });
      const run = await client.findall.retrieve('f1');
      const candidate = run.candidates?.[0];
      const matched: 'pending' | 'matched' | 'unmatched' | undefined = candidate?.match_status;
      expect([candidate?.name, matched]).toEqual(['Kestrel Forge', 'matched']);
      // @ts-expect-error a misspelt field of a candidate
      expect(candidate?.match_staus).toBeUndefined();

      const monitor = await client.monitors.retrieve('m1');
      const cadence: 'hourly' | 'daily' | 'weekly' = monitor.cadence;
      expect(cadence).toBe('daily');
      // @ts-expect-error a misspelt field of a monitor
      expect(monitor.cadance).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
