import { endpoint } from './endpoints';

/**
 * The client's paths are the generated document's: `tsc --noEmit` (run by npm test over this file)
 * checks each `@ts-expect-error` is still an error; jest reads the filled-in paths.
 */
describe('endpoints of the generated document', () => {
  it('fills path parameters, each escaped as one segment', () => {
    expect(endpoint('get', '/v1/tasks/{task_id}', { task_id: 'task_a/b c' })).toEqual({
      method: 'GET',
      path: '/v1/tasks/task_a%2Fb%20c',
    });
    expect(endpoint('post', '/v1/monitors/{monitor_id}/pause', { monitor_id: 'm1' })).toEqual({
      method: 'POST',
      path: '/v1/monitors/m1/pause',
    });
    expect(endpoint('post', '/v1/search')).toEqual({ method: 'POST', path: '/v1/search' });
  });

  it('does not compile a path the service does not serve, a method its path lacks or a missing parameter', () => {
    // @ts-expect-error a misspelt path
    expect(() => endpoint('get', '/v1/taks/{task_id}', { task_id: 't' })).not.toThrow();
    // @ts-expect-error POST /v1/search is served, DELETE is not
    expect(endpoint('delete', '/v1/search').method).toBe('DELETE');
    // @ts-expect-error the run's id is missing
    expect(() => endpoint('get', '/v1/tasks/{task_id}')).toThrow('/v1/tasks/{task_id} needs task_id');
    // @ts-expect-error a parameter of another name
    expect(() => endpoint('get', '/v1/tasks/{task_id}', { id: 't' })).toThrow('needs task_id');
  });
});
