import type Type from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One API route, shared by server and web: the server registers it with these schemas (validation and
 * OpenAPI), the web client derives its request and response types from it.
 * `path` is relative to /api and uses `{name}` placeholders; `accountScoped` routes are prefixed with
 * /accounts/{accountUuid}, by the client and the server alike.
 */
export interface RouteDef {
  method: HttpMethod;
  path: string;
  summary: string;
  tags: string[];
  accountScoped?: boolean;
  /** False for routes that need no bearer token. */
  auth?: boolean;
  params?: Type.TSchema;
  querystring?: Type.TSchema;
  body?: Type.TSchema;
  response: Record<number, Type.TSchema>;
}

export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

type StaticOf<S> = S extends Type.TSchema ? Type.Static<S> : undefined;

export type RouteParams<R extends RouteDef> = StaticOf<R['params']>;
export type RouteQuery<R extends RouteDef> = StaticOf<R['querystring']>;
export type RouteBody<R extends RouteDef> = StaticOf<R['body']>;
/** The body of the route's first 2xx response. */
export type RouteResponse<R extends RouteDef> = R['response'] extends infer Map
  ? 200 extends keyof Map
    ? StaticOf<Map[200]>
    : 201 extends keyof Map
      ? StaticOf<Map[201]>
      : 204 extends keyof Map
        ? void
        : unknown
  : unknown;

/** Fills `{name}` placeholders; throws when one is missing (a programming error). */
export function buildPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Fastify's path syntax for a contract path: `{id}` → `:id`. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
