import Type from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  ErrorBody,
  Uuid,
  accountParamOf,
  allowsUserRole,
  isUnsafeMethod,
  fullPath,
  toFastifyPath,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
} from '@portal/contract';
import { forbidden } from './errors.ts';
import { checkRequestText } from './text.ts';
import type { AccountAccess, PortalUser } from './types.ts';

type IsAccountRoute<R extends RouteDef> = R extends { accountScoped: true } | { accountParam: string }
  ? true
  : false;

/**
 * A request as the handler of route R sees it: params, query and body with the contract's types (validated
 * before the handler runs), the signed-in user, and on account routes the caller's checked access.
 */
export interface RouteRequest<R extends RouteDef> extends FastifyRequest {
  params: R['accountScoped'] extends true ? RouteParams<R> & { accountUuid: string } : RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  user: R['auth'] extends false ? PortalUser | null : PortalUser;
  account: IsAccountRoute<R> extends true ? AccountAccess : null;
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
  /** Creating POST that honours Idempotency-Key. */
  idempotent?: boolean;
  /** Largest request body in bytes, when a route takes more than the server's default (uploads). */
  bodyLimit?: number;
}

export interface RouteHooks {
  authenticate: Hook;
  /** The hook that checks the caller's access to the account the route names, by the route's rules. */
  accountScope: (route: RouteDef) => Hook;
}

/** The Fastify URL of a contract route: `/api`, the account prefix of account-scoped routes, the path. */
export function routeUrl(def: RouteDef): string {
  return toFastifyPath('/api' + fullPath(def));
}

/**
 * Whether the route is an account route; throws at registration for an account route without its role rule, and
 * for account rules on a route that names no account.
 */
function isAccountRoute(def: RouteDef): boolean {
  const where = `${def.method} ${def.path}`;
  if (!accountParamOf(def)) {
    if (def.accountRole) throw new Error(`${where}: accountRole needs accountScoped or accountParam`);
    if (def.supportAction) throw new Error(`${where}: supportAction needs accountScoped or accountParam`);
    return false;
  }
  if (!def.accountRole) throw new Error(`${where}: an account route must declare its accountRole`);
  if (def.auth === false) throw new Error(`${where}: an account route needs the signed-in user`);
  if (def.supportAction && !isUnsafeMethod(def.method)) {
    throw new Error(
      `${where}: supportAction is for unsafe methods (staff read every safe one an ADMIN reads)`,
    );
  }
  return true;
}

/**
 * The hook of a route that declares the user role its caller needs: 403 with the rule's text for any other, before
 * the account scope and the handler. A route without a signed-in user cannot declare one.
 */
function userRoleHook(def: RouteDef): Hook[] {
  const rule = def.userRole;
  if (!rule) return [];
  if (def.auth === false) throw new Error(`${def.method} ${def.path}: userRole needs the signed-in user`);
  return [
    async (request) => {
      if (!allowsUserRole(rule, request.user?.userRole)) {
        throw forbidden(rule.denied ?? 'Your user role may not call this');
      }
    },
  ];
}

/**
 * The error statuses the edge can answer on a route, whatever its handler does: 400 for a malformed request (URL,
 * path parameter, JSON), 401 without a valid token, 403 for a missing XSRF header on unsafe methods (not on app
 * routes), 413 and 415
 * for a body too large or not JSON, 422 for refused input, 409 (and 422) for Idempotency-Key conflicts. The
 * contract's own entries (404, 409…) are added to these; OpenAPI lists them all.
 */
function edgeErrorStatuses(def: RouteDef, idempotent = false): number[] {
  // 422 on every route: the text rule refuses a query string's text wherever it is sent.
  const statuses = [400, 422];
  if (def.auth !== false) statuses.push(401);
  if (isUnsafeMethod(def.method)) statuses.push(...(def.appRoute ? [] : [403]), 413, 415);
  if (idempotent) statuses.push(409);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/**
 * Registers a contract route: URL `/api` + path (account-scoped ones under /accounts/{accountUuid}), the
 * contract's schemas for validation, serialisation and OpenAPI (with the edge's error statuses), the text rule
 * before validation, authentication unless `auth: false`, the user role the route declares, and on account routes
 * the account-scope hook with the route's role rule.
 */
export function createRouter(app: FastifyInstance, hooks: RouteHooks) {
  return function route<R extends RouteDef>(def: R, options: RouteOptions<R>): void {
    const account = isAccountRoute(def);
    let params = def.params;
    if (def.accountScoped) {
      const own = (def.params as Type.TObject | undefined)?.properties ?? {};
      params = Type.Object({ accountUuid: Uuid, ...own });
    }
    const idempotent = options.idempotent ?? false;
    const edgeErrors = Object.fromEntries(edgeErrorStatuses(def, idempotent).map((s) => [s, ErrorBody]));
    const schema: FastifySchema & Record<string, unknown> = {
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      response: { ...edgeErrors, ...def.response },
      ...(params ? { params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.auth === false
        ? def.security
          ? { security: [{ [def.security]: [] }] }
          : {}
        : { security: [{ bearer: [] }] }),
    };
    app.route({
      method: def.method,
      url: routeUrl(def),
      schema,
      config: { idempotent, appRoute: def.appRoute ?? false },
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      onRequest: def.auth === false ? [] : [hooks.authenticate],
      // Every text of the request passes the one text rule before the schema sees it.
      // A callback hook (no promise per request); what it throws becomes the answer as from an async one.
      preValidation: (request, _reply, done) => {
        checkRequestText(request);
        done();
      },
      preHandler: [...userRoleHook(def), ...(account ? [hooks.accountScope(def)] : [])],
      handler: options.handler as unknown as (
        request: FastifyRequest,
        reply: FastifyReply,
      ) => Promise<unknown>,
    });
  };
}

export type Route = ReturnType<typeof createRouter>;
