import { Writable } from 'node:stream';
import pino from 'pino';
import { JsonLogger, logFormatOf } from './logger';
import { prettyLine } from './pretty';
import { baseUrlOf, readyBanner } from '../core/boot';

describe('logs for people and for machines', () => {
  it('auto is pretty on a terminal and JSON otherwise; json and pretty are taken as said', () => {
    expect(logFormatOf('auto', true)).toBe('pretty');
    expect(logFormatOf('auto', false)).toBe('json');
    expect(logFormatOf('json', true)).toBe('json');
    expect(logFormatOf('pretty', false)).toBe('pretty');
  });

  it('a JSON line reads as time, level, service, context, message and the other fields', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 'info',
        time: '2026-11-26T12:04:05.123Z',
        service: 'standalone',
        pid: 7,
        context: 'Boot',
        msg: 'standalone listening',
        port: 8080,
      }),
    );
    expect(line).toBe('12:04:05 INFO  [standalone] Boot: standalone listening port=8080');
    expect(prettyLine('not json')).toBe('not json');
  });

  it("Nest's module and route chatter is debug, not info", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) });
    const captured = new JsonLogger(pino({ level: 'info' }, sink));
    captured.log('Mapped {/v1/search, POST} route', 'RouterExplorer');
    captured.log('AppModule dependencies initialized', 'InstanceLoader');
    captured.log('standalone listening', 'Boot');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ context: 'Boot', msg: 'standalone listening' });
  });

  it('the ready banner names the console, the demo key once, and a call that works', () => {
    const first = readyBanner('http://localhost:8080', 'wr_demo');
    expect(first).toContain('Console   http://localhost:8080/');
    expect(first).toContain('Demo key  wr_demo');
    expect(first).toContain(`curl -s http://localhost:8080/v1/search -H 'Authorization: Bearer wr_demo'`);
    expect(first).toContain('"queries":["sodium-ion battery"]');
    expect(readyBanner('http://localhost:8080', null)).not.toContain('Demo key');
    expect([baseUrlOf('0.0.0.0', 8080), baseUrlOf('::', 1), baseUrlOf('127.0.0.1', 2), baseUrlOf('::1', 3)]).toEqual([
      'http://localhost:8080',
      'http://localhost:1',
      'http://127.0.0.1:2',
      'http://[::1]:3',
    ]);
  });
});
