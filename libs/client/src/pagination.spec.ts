import { WebResearch } from './client';
import { APIError } from './errors';
import { loopback } from './testing/loopback';

/** A list endpoint over `total` monitors, paged by the query's limit and offset as the service pages. */
function monitorsList(total: number) {
  return loopback((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const monitors = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      id: `m${offset + i}`,
      status: url.searchParams.get('status'),
    }));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ monitors, total, limit, offset }));
  });
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const clientOf = async (server: Awaited<ReturnType<typeof loopback>>) => {
  servers.push(server);
  return new WebResearch({ baseURL: server.url, apiKey: 'wr_abcdefghijkl_secret', maxRetries: 0 });
};

describe('lists page with for await', () => {
  it('await gives the first page; for await walks every page, keeping the query, one request per page', async () => {
    const server = await monitorsList(5);
    const client = await clientOf(server);
    const first = await client.monitors.list({ limit: 2, status: 'active' });
    expect(first.items.map((m) => m.id)).toEqual(['m0', 'm1']);
    expect([first.total, first.limit, first.offset, first.hasNextPage()]).toEqual([5, 2, 0, true]);
    const seen: string[] = [];
    for await (const monitor of client.monitors.list({ limit: 2, status: 'active' })) seen.push(monitor.id);
    expect(seen).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(server.seen.slice(1).map((s) => s.url)).toEqual([
      '/v1/monitors?limit=2&status=active',
      '/v1/monitors?limit=2&status=active&offset=2',
      '/v1/monitors?limit=2&status=active&offset=4',
    ]);
  });

  it('getNextPage follows hasNextPage, and refuses past the last page', async () => {
    const client = await clientOf(await monitorsList(3));
    const first = await client.monitors.list({ limit: 2 });
    const second = await first.getNextPage();
    expect([second.items.map((m) => m.id), second.offset, second.hasNextPage()]).toEqual([['m2'], 2, false]);
    await expect(second.getNextPage()).rejects.toThrow(/no page after this one/);
  });

  it('an empty page ends the walk even when total says more (a run removed meanwhile)', async () => {
    const server = await loopback((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0);
      const monitors = offset === 0 ? [{ id: 'm0' }] : [];
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ monitors, total: 4, limit: 1, offset }));
    });
    const client = await clientOf(server);
    const seen: string[] = [];
    for await (const monitor of client.monitors.list({ limit: 1 })) seen.push(monitor.id);
    expect(seen).toEqual(['m0']);
    expect(server.seen).toHaveLength(2);
  });

  it('a server that ignores the offset ends the walk with an error, not an endless loop', async () => {
    const server = await loopback((_req, res) => {
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ monitors: [{ id: 'm0' }], total: 1_000_000, limit: 1, offset: 0 }));
    });
    const client = await clientOf(server);
    const seen: string[] = [];
    const walk = async () => {
      for await (const monitor of client.monitors.list({ limit: 1 })) seen.push(monitor.id);
    };
    await expect(walk()).rejects.toThrow(/asked for the page at offset 1, the service answered offset 0/);
    expect(seen).toEqual(['m0']);
    expect(server.seen).toHaveLength(2);
  });

  it("a page's error reaches the loop as the status's APIError", async () => {
    const server = await loopback((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0);
      if (offset > 0)
        return res
          .writeHead(422, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ detail: [{ type: 'too_big', loc: ['query', 'offset'], msg: 'too far' }] }));
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ tasks: [{ task_id: 't0' }], total: 2, limit: 1, offset }));
    });
    const client = await clientOf(server);
    const seen: string[] = [];
    const walk = async () => {
      for await (const task of client.tasks.list({ limit: 1 })) seen.push(task.task_id);
    };
    await expect(walk()).rejects.toBeInstanceOf(APIError);
    expect(seen).toEqual(['t0']);
  });
});
