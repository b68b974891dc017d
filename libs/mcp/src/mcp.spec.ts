import 'reflect-metadata';
import Ajv from 'ajv';
import { describeDetail, sseEvents } from './rest-backend';
import { stageMessage } from './run-wait';
import { crawlText, mapText, researchText, SITE_TEXT_BOUNDS, taskText } from './tool-text';
import { MCP_TOOLS } from './tools';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};
const tool = (name: string) => MCP_TOOLS.find((t) => t.name === name)!;
const valid = (name: string, args: unknown) => new Ajv({ strict: false }).compile(tool(name).inputSchema)(args);

describe('sseEvents', () => {
  it('parses the gateway’s frames across chunk borders, skipping comments and keep-alives, with JSON data', async () => {
    const events = await collect(
      sseEvents(
        chunks(
          ': connected\n\n',
          'id: 3\nevent: plan.created\ndata: {"subqu',
          'eries":["a"]}\n\n: keep-alive\n\nid: 9\nevent: run.completed\ndata: {"status":"completed"}\n\n',
        ),
      ),
    );
    expect(events).toEqual([
      { id: '3', event: 'plan.created', data: { subqueries: ['a'] } },
      { id: '9', event: 'run.completed', data: { status: 'completed' } },
    ]);
  });
});

describe('describeDetail', () => {
  it('names each refused field of a 422 list and its message', () => {
    const detail = [
      { type: 'too_long', loc: ['body', 'queries'], msg: 'List should have at most 5 items after validation, not 6' },
    ];
    expect(describeDetail(422, detail)).toBe('422: queries: List should have at most 5 items after validation, not 6');
  });
  it('keeps a sentence as it is', () => {
    expect(describeDetail(404, 'Search run search_x not found')).toBe('404: Search run search_x not found');
  });
});

describe('tool input schemas', () => {
  it('web_search takes queries (1 to 5) or an objective, and nothing unknown', () => {
    expect(valid('web_search', { queries: ['a'] })).toBe(true);
    expect(valid('web_search', { objective: 'battery factories' })).toBe(true);
    expect(valid('web_search', {})).toBe(false);
    expect(valid('web_search', { queries: ['a', 'b', 'c', 'd', 'e', 'f'] })).toBe(false);
    expect(valid('web_search', { queries: ['a'], depth: 'deep' })).toBe(false);
    expect(valid('web_search', { queries: ['a'], surprise: 1 })).toBe(false);
  });
  it('bounds the waits to 1..300 s and extract to 1..20 URLs', () => {
    expect(valid('deep_research', { prompt: 'q', wait_seconds: 300 })).toBe(true);
    expect(valid('deep_research', { prompt: 'q', wait_seconds: 301 })).toBe(false);
    expect(valid('task', { task: 't', wait_seconds: 0 })).toBe(false);
    expect(valid('extract', { urls: Array.from({ length: 21 }, (_, i) => `https://x.test/${i}`) })).toBe(false);
    expect(valid('extract', { urls: [] })).toBe(false);
  });
  it('bounds map to 1..5000 URLs and a crawl to 1..1000 pages, 0..10 hops, its known formats', () => {
    expect(valid('map', { url: 'https://x.test/', limit: 5000, sitemap: 'only' })).toBe(true);
    expect(valid('map', { url: 'https://x.test/', limit: 0 })).toBe(false);
    expect(valid('map', { url: 'https://x.test/', sitemap: 'maybe' })).toBe(false);
    expect(
      valid('crawl', {
        url: 'https://x.test/',
        limit: 1000,
        max_depth: 0,
        include_paths: ['^/docs'],
        format: 'text',
        render: 'never',
        wait_seconds: 5,
      }),
    ).toBe(true);
    expect(valid('crawl', { url: 'https://x.test/', limit: 1001 })).toBe(false);
    expect(valid('crawl', { url: 'https://x.test/', max_depth: 11 })).toBe(false);
    expect(valid('crawl', { url: 'https://x.test/', index: true })).toBe(false);
    expect(valid('get_crawl', { crawl_id: 'crawl_1', limit: 101 })).toBe(false);
    expect(valid('get_crawl', { crawl_id: '../usage' })).toBe(false);
  });
  it('takes run ids as path-safe tokens only', () => {
    expect(valid('get_research', { search_id: 'search_01HZX' })).toBe(true);
    expect(valid('get_research', { search_id: '../../v1/usage' })).toBe(false);
    expect(valid('get_research', { search_id: '..' })).toBe(false);
  });
});

describe('stageMessage', () => {
  it('says what each stage of a run did', () => {
    expect(stageMessage({ id: '1', event: 'plan.created', data: { subqueries: ['a b', 'c'] } })).toBe(
      'plan: 2 sub-queries: a b; c',
    );
    expect(stageMessage({ id: '2', event: 'page.fetched', data: { url: 'https://x.test/a', ok: true } })).toBe(
      'read https://x.test/a',
    );
    expect(stageMessage({ id: '3', event: 'page.fetched', data: { url: 'https://x.test/b', ok: false } })).toBe(
      'could not read https://x.test/b',
    );
    expect(
      stageMessage({
        id: '6',
        event: 'page.fetched',
        data: { url: 'https://x.test/c', title: 'Our team', error: null, depth: 2 },
      }),
    ).toBe('read https://x.test/c: Our team');
    expect(
      stageMessage({
        id: '7',
        event: 'page.fetched',
        data: { url: 'https://x.test/d', title: null, error: 'HTTP 503' },
      }),
    ).toBe('could not read https://x.test/d (HTTP 503)');
    expect(stageMessage({ id: '4', event: 'finding.graded', data: { confidence: 'high', answer: 'It is 42.' } })).toBe(
      'finding (high): It is 42.',
    );
    expect(stageMessage({ id: '5', event: 'entity.found', data: { name: 'Acme', url: 'https://acme.test/' } })).toBe(
      'found Acme https://acme.test/',
    );
  });
});

describe('tool texts', () => {
  it('a completed research answers the report first, then each numbered source with its URL', () => {
    const text = researchText(
      {
        search_id: 's1',
        status: 'completed',
        report: 'Cells last longer [1].',
        sources: [{ index: 1, title: 'Lab news', url: 'https://lab.test/n' }],
        credits: 1,
      },
      true,
    );
    expect(text.startsWith('Cells last longer [1].')).toBe(true);
    expect(text).toContain('[1] Lab news: https://lab.test/n');
  });
  it('a run still going when the wait ends answers its id and the tool to call', () => {
    expect(researchText({ search_id: 's2', status: 'running', results: [] }, false)).toContain(
      'get_research with search_id "s2"',
    );
    expect(taskText({ task_id: 't2', status: 'queued' }, false)).toContain('get_task with task_id "t2"');
  });
  it('a map lists each URL with its title, bounded', () => {
    const text = mapText({
      url: 'https://x.test/',
      links: [{ url: 'https://x.test/team', title: 'Our team' }, { url: 'https://x.test/a' }],
      credits: 1,
    });
    expect(text).toContain('2 URLs on https://x.test/');
    expect(text).toContain('1. https://x.test/team (Our team)');
    expect(text).toContain('2. https://x.test/a\n');
    const many = mapText({
      url: 'https://x.test/',
      links: Array.from({ length: 5000 }, (_, i) => ({ url: `https://x.test/${'p'.repeat(200)}/${i}` })),
      credits: 1,
    });
    expect(many.length).toBeLessThan(SITE_TEXT_BOUNDS.mapChars + 500);
    expect(many).toMatch(/… \d+ more links in the structured result/);
  });
  it('a crawl gives each page its URL, title and the start of its content, and how to page on', () => {
    const pages = [
      { url: 'https://x.test/', title: 'Home', content: 'Welcome. '.repeat(200), depth: 0, error: null },
      { url: 'https://x.test/gone', title: null, content: null, depth: 1, error: 'HTTP 404' },
    ];
    const text = crawlText(
      {
        crawl_id: 'crawl_1',
        url: 'https://x.test/',
        status: 'completed',
        counts: { pages: 3, read: 2, failed: 1 },
        pages,
        pages_offset: 0,
        credits: 2,
      },
      true,
    );
    expect(text).toContain('1. Home\n   https://x.test/ · depth 0\n   Welcome. Welcome.');
    expect(text).toContain('Not read: HTTP 404');
    expect(text).not.toContain('Welcome. '.repeat(100));
    expect(text).toContain('get_crawl with crawl_id "crawl_1" and offset 2');
    expect(
      crawlText(
        { crawl_id: 'crawl_2', url: 'https://x.test/', status: 'running', counts: { pages: 0 }, pages: [] },
        false,
      ),
    ).toContain('still running');
  });
});
