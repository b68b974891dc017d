/** The HTTP layer's error answers: unknown routes and methods, unexpected errors hidden and logged, statuses with their headers. */
import { Logger } from '@nestjs/common';
import { get, request, useSampleApp } from './testing/sample-app';

useSampleApp();

describe('other errors', () => {
  it('answers unknown routes like FastAPI: 404 Not Found', async () => {
    const r = await get('/nope');
    expect([r.statusCode, r.json()]).toEqual([404, { detail: 'Not Found' }]);
  });

  it.each([
    ['PUT', '/search', 'POST'],
    ['PATCH', '/tasks/t_1', 'GET, HEAD'],
  ])('answers %s %s on a known path with 405 and Allow', async (method, url, allow) => {
    const r = await request({ method, url });
    expect([r.statusCode, r.json(), r.headers.allow]).toEqual([405, { detail: 'Method Not Allowed' }, allow]);
  });

  it.each([
    ['POST', '/nope', 'application/json', 404],
    ['PUT', '/search', 'application/json', 405],
    ['POST', '/nope', 'application/xml', 404],
  ])('does not read the body of %s %s (%s): %d', async (method, url, type, status) => {
    const r = await request({ method, url, payload: '{"broken": ', headers: { 'content-type': type } });
    expect(r.statusCode).toBe(status);
  });

  it('hides the message of an unexpected error and logs it without headers', async () => {
    const log = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const r = await get('/boom?api_key=k', { authorization: 'Bearer wr_secret' });
    expect([r.statusCode, r.body]).toEqual([500, '{"detail":"Internal Server Error"}']);
    expect(log).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(log.mock.calls);
    expect(logged).toContain('GET /boom failed: db password is hunter2');
    expect(logged).not.toContain('wr_secret');
    expect(logged).not.toContain('api_key');
  });

  it('hides the message of a Nest 5xx exception too', async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const r = await get('/nest-500');
    expect([r.statusCode, r.json()]).toEqual([500, { detail: 'Internal Server Error' }]);
  });

  it.each([
    ['/nest-404', 404, { detail: 'Task t_9 not found' }, {}],
    ['/api-404', 404, { detail: 'Monitor not found' }, {}],
    ['/domain-404', 404, { detail: 'run r_9 does not exist' }, {}],
    ['/domain-409', 409, { detail: 'the run is already cancelled' }, {}],
    ['/domain-422', 422, { detail: 'cadence must be at least 1 hour' }, {}],
    ['/limited', 429, { detail: 'Too Many Requests' }, { 'retry-after': '2', 'ratelimit-policy': '5;w=1' }],
    ['/busy', 503, { detail: 'Service Unavailable' }, { 'retry-after': '30' }],
    ['/private', 401, { detail: 'Not authenticated' }, { 'www-authenticate': 'Bearer' }],
  ])('answers %s with its status, detail and headers', async (url, status, body, headers) => {
    const r = await get(url);
    expect([r.statusCode, r.json()]).toEqual([status, body]);
    expect(r.headers).toMatchObject(headers);
  });
});
