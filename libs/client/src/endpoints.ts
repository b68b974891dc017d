import type { paths } from './openapi';
import { segment } from './transport';

/**
 * The service's operations as the generated document lists them: a path template is a key of
 * `paths` (libs/client/src/openapi.ts, generated from the OpenAPI document), and a method one its
 * path defines, so a resource whose path or method the service does not serve does not compile.
 */
export type ApiPath = keyof paths;
type Method = 'get' | 'post' | 'patch' | 'delete';
/** The methods the document defines for a path. */
export type MethodOf<P extends ApiPath> = {
  [M in Method]-?: NonNullable<paths[P][M]> extends never ? never : M;
}[Method];
/** The `{name}` parameters of a path template. */
type ParamsOf<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never;
/** A path's parameters, by name: none for a path without any. */
type ParamsArg<P extends ApiPath> = [ParamsOf<P>] extends [never] ? [] : [params: Record<ParamsOf<P>, string>];

/** The method and filled-in path of an operation, each path parameter escaped as one segment. */
export function endpoint<P extends ApiPath, M extends MethodOf<P>>(
  method: M,
  template: P,
  ...params: ParamsArg<P>
): { method: Uppercase<M>; path: string } {
  const values: Record<string, string> = params[0] ?? {};
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`${template} needs ${name}`);
    return segment(value);
  });
  return { method: method.toUpperCase() as Uppercase<M>, path };
}
