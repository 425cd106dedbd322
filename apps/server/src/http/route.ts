import Type from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  Uuid,
  toFastifyPath,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
} from '@portal/contract';

/** A request whose params, query and body have the contract's types (validated before the handler runs). */
export interface RouteRequest<R extends RouteDef> extends FastifyRequest {
  params: R['accountScoped'] extends true ? RouteParams<R> & { accountUuid: string } : RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
}

type Static<S> = S extends Type.TSchema ? Type.Static<S> : never;
/** Body of any 2xx response the route declares. */
export type RouteOk<R extends RouteDef> = {
  [K in keyof R['response']]: K extends 200 | 201 | 202
    ? Static<R['response'][K]>
    : K extends 204
      ? null
      : never;
}[keyof R['response']];

export type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface RouteOptions<R extends RouteDef> {
  handler: (request: RouteRequest<R>, reply: FastifyReply) => Promise<RouteOk<R>>;
  /** Extra checks after authentication and account scope (e.g. requireAccountRole). */
  preHandler?: Hook[];
  /** Creating POST that honours Idempotency-Key. */
  idempotent?: boolean;
}

export interface RouteHooks {
  authenticate: Hook;
  accountScope: Hook;
}

/**
 * Registers a contract route: URL `/api` + path (account-scoped ones under /accounts/{accountUuid}), the
 * contract's schemas for validation, serialisation and OpenAPI, and the hooks its flags ask for.
 */
export function createRouter(app: FastifyInstance, hooks: RouteHooks) {
  return function route<R extends RouteDef>(def: R, options: RouteOptions<R>): void {
    const path = (def.accountScoped ? '/accounts/{accountUuid}' : '') + def.path;
    let params = def.params;
    if (def.accountScoped) {
      const own = (def.params as Type.TObject | undefined)?.properties ?? {};
      params = Type.Object({ accountUuid: Uuid, ...own });
    }
    const schema: FastifySchema & Record<string, unknown> = {
      summary: def.summary,
      tags: def.tags,
      response: def.response,
      ...(params ? { params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.auth === false ? {} : { security: [{ bearer: [] }] }),
    };
    app.route({
      method: def.method,
      url: toFastifyPath('/api' + path),
      schema,
      config: { idempotent: options.idempotent ?? false },
      onRequest: def.auth === false ? [] : [hooks.authenticate],
      preHandler: [...(def.accountScoped ? [hooks.accountScope] : []), ...(options.preHandler ?? [])],
      handler: options.handler as unknown as (
        request: FastifyRequest,
        reply: FastifyReply,
      ) => Promise<unknown>,
    });
  };
}

export type Route = ReturnType<typeof createRouter>;
