import type Type from 'typebox';
import { ACCOUNT_ROLES, USER_ROLES, hasLevel, type AccountRole, type UserRole } from './common.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route of one account. `min`: that account role or any above it; `exactly`: that role only.
 * Everyone else gets 403 with `denied` as message. Staff acting as SUPPORT are judged by `mayCall`.
 */
export type AccountRoleRule = ({ min: AccountRole } | { exactly: AccountRole }) & { denied?: string };

/**
 * Who may call a route by the signed-in user's own role (the provider's side, across accounts). `min`: that user
 * role or any above it in SPEC's order; `oneOf`: exactly these roles (authoring is TEACHER's and PORTAL_ADMIN's,
 * not the support roles' between them). Everyone else gets 403 with `denied` as message.
 */
export type UserRoleRule = ({ min: UserRole } | { oneOf: readonly UserRole[] }) & { denied?: string };

/** Whether a user role passes the rule (the server enforces it, the web's route table mirrors it). */
export function allowsUserRole(rule: UserRoleRule, role: UserRole | null | undefined): boolean {
  if (!role) return false;
  return 'oneOf' in rule ? rule.oneOf.includes(role) : hasLevel(USER_ROLES, role, rule.min);
}

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
  /** An area route of one account: the path gets the prefix /accounts/{accountUuid}. */
  accountScoped?: boolean;
  /** A route whose own path names the account (e.g. `id` in /accounts/v1/accounts/{id}); no prefix. */
  accountParam?: string;
  /**
   * Required on account routes (`accountScoped` or `accountParam`): the server answers 404 to callers without
   * access to the account and 403 to those this rule refuses, before the handler runs.
   */
  accountRole?: AccountRoleRule;
  /** The user role the caller needs, checked by the server before the handler (403 otherwise). */
  userRole?: UserRoleRule;
  /**
   * An unsafe account route (POST, PUT, PATCH, DELETE) that staff acting as SUPPORT may call, because it changes
   * nothing of the customer's or the support task needs it. Staff get 403 on every other unsafe account route.
   */
  supportAction?: boolean;
  /** False for routes that need no bearer token. */
  auth?: boolean;
  /**
   * A route a native app calls, not the browser: no cookie carries its credential, so the XSRF double submit does
   * not apply (`auth: false`; the handler checks the app's own credential, if any).
   */
  appRoute?: boolean;
  /** The OpenAPI security scheme an `appRoute` checks itself (a device token), for the API document. */
  security?: string;
  /** A longer explanation than `summary` for the API document. */
  description?: string;
  params?: Type.TSchema;
  querystring?: Type.TSchema;
  body?: Type.TSchema;
  response: Record<number, Type.TSchema>;
}

export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

/** The path parameter that names the route's account, or undefined for routes that act on no one account. */
export function accountParamOf(route: RouteDef): string | undefined {
  return route.accountScoped ? 'accountUuid' : route.accountParam;
}

/** The path below /api, with the account prefix of `accountScoped` routes; placeholders stay. */
export function fullPath(route: RouteDef): string {
  return (route.accountScoped ? '/accounts/{accountUuid}' : '') + route.path;
}

/** Whether a caller with this account role passes the rule. */
export function allowsRole(rule: AccountRoleRule, role: AccountRole | null | undefined): boolean {
  return 'exactly' in rule ? role === rule.exactly : hasLevel(ACCOUNT_ROLES, role, rule.min);
}

/** A method that changes something (what the XSRF check and the staff rule guard). */
export function isUnsafeMethod(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/** The role staff acting as SUPPORT read as: support needs to see what an account's admin sees, not to own it. */
export const STAFF_READS_AS: AccountRole = 'ADMIN';

/**
 * Whether a caller with this account role may call an account route: the server's account-scope hook decides with
 * it, and the UI shows an action only where it passes. Members pass the route's role rule. Staff (account role
 * SUPPORT) pass where an ADMIN would, and on unsafe methods only where the route declares a `supportAction`.
 */
export function mayCall(
  route: Pick<RouteDef, 'method' | 'accountRole' | 'supportAction'>,
  role: AccountRole | null | undefined,
): boolean {
  if (!route.accountRole) return true;
  if (role !== 'SUPPORT') return allowsRole(route.accountRole, role);
  if (isUnsafeMethod(route.method) && !route.supportAction) return false;
  return allowsRole(route.accountRole, STAFF_READS_AS);
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
      : 202 extends keyof Map
        ? StaticOf<Map[202]>
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
