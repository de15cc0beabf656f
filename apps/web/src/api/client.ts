// Typed calls over apiRequest: the path, method, path params, query, body and answer types all come
// from schema.gen.ts (generated from the API's OpenAPI document), so a renamed field or route is a
// compile error here instead of a blank cell in the browser.
import type { components, paths } from './schema.gen';
import { apiRequest, type Query } from './http';

export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : null;
type OpOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths];

/** The JSON of an operation's success answer (200, else 201/202; 204 is null). */
export type Answer<P extends keyof paths, M extends Method> = OpOf<P, M> extends { responses: infer R }
  ? 200 extends keyof R
    ? Json<R[200]>
    : 201 extends keyof R
      ? Json<R[201]>
      : 202 extends keyof R
        ? Json<R[202]>
        : null
  : never;
export type QueryOf<P extends keyof paths, M extends Method> = OpOf<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<P extends keyof paths, M extends Method> = OpOf<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type ParamsOf<P extends keyof paths, M extends Method> = OpOf<P, M> extends { parameters: { path: infer A } } ? A : never;

type Options<P extends keyof paths, M extends Method> = {
  params?: ParamsOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
  signal?: AbortSignal;
};

/** '/v1/jobs/{jobKey}' + {jobKey: 'a:b'} → '/v1/jobs/a%3Ab'. */
export function fillPath(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${template}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

function call<M extends Method>(method: M) {
  return <P extends PathsWith<M>>(path: P, opts: Options<P, M> = {}): Promise<Answer<P, M>> =>
    apiRequest<Answer<P, M>>(method.toUpperCase() as Uppercase<M>, fillPath(path, opts.params as Record<string, string> | undefined), {
      query: opts.query as Query | undefined,
      body: opts.body,
      signal: opts.signal,
    });
}

export const api = { get: call('get'), post: call('post'), put: call('put'), patch: call('patch'), delete: call('delete') };
