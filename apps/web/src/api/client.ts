import { buildPath, fullPath, isUnsafeMethod, type RouteDef, type RouteResponse } from '@portal/contract';
import { accessToken } from '@/auth/tokens.ts';
import { ApiError } from './errors.ts';

export { ApiError } from './errors.ts';

export const API_BASE = '/api';
export const MISSING_ACCOUNT_MESSAGE = 'please provide a accountUuid';

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestInput {
  params?: Record<string, string | number>;
  query?: Query | object;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The account an account-scoped route works on (its /accounts/{accountUuid} prefix). Required for those routes:
   * the caller names the account it works on, the same value its query key holds; nothing is read from storage.
   */
  accountUuid?: string;
}

/** The input of a route's request: an account-scoped route must name its account. */
export type RequestFor<R extends RouteDef> = R extends { accountScoped: true }
  ? RequestInput & { accountUuid: string }
  : RequestInput;

/** The input argument: required (it names the account) for account-scoped routes, optional for the others. */
export type RequestArgs<R extends RouteDef> = R extends { accountScoped: true }
  ? [input: RequestFor<R>]
  : [input?: RequestInput];

/**
 * Query string: GET and DELETE repeat the key for arrays (`a=1&a=2`), other methods use the bracket form
 * (`a[]=1&a[]=2`); the server accepts both. Null and undefined are left out.
 */
export function buildQuery(method: string, query: Query | object | undefined): string {
  if (!query) return '';
  const repeat = method === 'GET' || method === 'DELETE';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Query)) {
    if (Array.isArray(value)) {
      for (const item of value as QueryValue[]) {
        if (item !== null && item !== undefined) search.append(repeat ? key : `${key}[]`, String(item));
      }
    } else if (value !== null && value !== undefined) {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The URL below the origin: /api, the account prefix for account-scoped routes, the route's path and query. An
 * account-scoped route without `accountUuid` is refused (thrown), never completed from this tab's stored account.
 */
export function buildUrl<R extends RouteDef>(route: R, ...[input = {}]: RequestArgs<R>): string {
  const params = { ...input.params };
  if (route.accountScoped) {
    if (!input.accountUuid) throw new Error(MISSING_ACCOUNT_MESSAGE);
    params.accountUuid = input.accountUuid;
  }
  return `${API_BASE}${buildPath(fullPath(route), params)}${buildQuery(route.method, input.query)}`;
}

export function readCookie(name: string, cookies = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Request headers: bearer token when one exists, JSON body, and on an unsafe method (the ones the server checks the
 * XSRF double submit on) the XSRF cookie echoed. Only there: reading `document.cookie` is a round trip to the
 * browser, about 2 ms a request on a slow phone.
 */
export function buildHeaders(method: string, hasBody: boolean, extra: Record<string, string> = {}): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  const token = accessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const xsrf = isUnsafeMethod(method) ? readCookie('XSRF-TOKEN') : null;
  if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
  if (hasBody) headers.set('Content-Type', 'application/json');
  for (const [key, value] of Object.entries(extra)) headers.set(key, value);
  return headers;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: { message?: unknown; code?: unknown; details?: { fields?: Record<string, string> } } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON (e.g. a proxy's error page)
  }
  const message =
    typeof body.message === 'string' && body.message
      ? body.message
      : `${response.status} ${response.statusText}`.trim();
  const code = typeof body.code === 'string' ? body.code : `HTTP_${response.status}`;
  return new ApiError(response.status, message, code, body.details?.fields);
}

/** What answers in place of the network in a page test (see {@link answerInTests}). */
interface TestAnswers {
  request?: (route: RouteDef, ...args: unknown[]) => unknown;
  file?: (route: RouteDef, ...args: unknown[]) => Promise<ApiFile>;
}
let testAnswers: TestAnswers = {};

/**
 * Page tests answer the app's requests themselves (apps/web/src/testing/api-mock.ts sets and clears this around each
 * test), without replacing this module, so their files share their worker's modules (decision 246). Only under
 * Vitest: the app's build drops it with the check in {@link apiRequest}.
 */
export function answerInTests(answers: TestAnswers): void {
  testAnswers = answers;
}

/** The one HTTP client of the SPA, typed by the contract's route definitions. No timeout: slow answers count. */
export async function apiRequest<R extends RouteDef>(
  route: R,
  ...args: RequestArgs<R>
): Promise<RouteResponse<R>> {
  if (import.meta.env.MODE === 'test' && testAnswers.request)
    return (await testAnswers.request(route, ...args)) as RouteResponse<R>;
  const input: RequestInput = args[0] ?? {};
  const url = buildUrl<RouteDef>(route, input);
  const hasBody = input.body !== undefined;
  const response = await fetch(url, {
    method: route.method,
    headers: buildHeaders(route.method, hasBody, input.headers),
    body: hasBody ? JSON.stringify(input.body) : undefined,
    credentials: 'same-origin',
    signal: input.signal,
  });
  return readAnswer<R>(response);
}

/** A route's answer from its response: the parsed body, or the API's error thrown. */
export async function readAnswer<R extends RouteDef>(response: Response): Promise<RouteResponse<R>> {
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as RouteResponse<R>;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as RouteResponse<R>;
}

/** A file the API serves: its bytes, typed by the server's Content-Type, and the name the server gives it. */
export interface ApiFile {
  blob: Blob;
  /** From Content-Disposition; null when the server names none. */
  fileName: string | null;
}

/** Fetches a file the API serves (a logo to show, a document to save); `useDownload` saves one. */
export async function apiFile<R extends RouteDef>(route: R, ...args: RequestArgs<R>): Promise<ApiFile> {
  if (import.meta.env.MODE === 'test' && testAnswers.file) return testAnswers.file(route, ...args);
  const input: RequestInput = args[0] ?? {};
  const response = await fetch(buildUrl<RouteDef>(route, input), {
    method: route.method,
    headers: buildHeaders(route.method, false, { ...input.headers, Accept: '*/*' }),
    credentials: 'same-origin',
    signal: input.signal,
  });
  if (!response.ok) throw await toApiError(response);
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition')) };
}

/** The file name a Content-Disposition gives (RFC 6266: `filename*` first), or null. */
function fileNameOf(disposition: string | null): string | null {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? null;
}
