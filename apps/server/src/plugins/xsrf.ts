import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

const TOKEN_BYTES = 24;
/** Tokens drawn from the random source at once: one draw per this many new cookies instead of one per cookie. */
const TOKENS_PER_DRAW = 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A new cookie's token: 24 bytes from the operating system's random source, as `crypto.randomBytes(24)`, taken from
 * a buffer drawn for 256 tokens at a time (decision 254). Every request without the cookie (API clients, a first
 * visit) gets a new token, and a draw per token cost more than the rest of the hook together.
 */
function newToken(): string {
  if (poolOffset + TOKEN_BYTES > pool.length) {
    pool = crypto.randomBytes(TOKEN_BYTES * TOKENS_PER_DRAW);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + TOKEN_BYTES);
  // The bytes are used once: they are overwritten, so nothing in memory repeats a handed-out token.
  pool.fill(0, poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}

/** Whether a route pattern belongs to the API (the pattern the router matched, never the request's URL text). */
const isApiRoute = (pattern: string | undefined) =>
  pattern !== undefined && (pattern === '/api' || pattern.startsWith('/api/'));

/**
 * Double-submit XSRF protection: a random XSRF-TOKEN cookie readable by the SPA, which echoes it in
 * X-XSRF-TOKEN on unsafe API calls. Needs @fastify/cookie.
 *
 * Which calls are checked is decided on the route the router matched, because the router decodes and normalises
 * the URL: a check on the URL's text would let `/%61pi/...` through to the API route. A request that matches no
 * route is answered 404 whatever its spelling.
 */
export function registerXsrf(app: FastifyInstance, config: Config) {
  const secure = config.publicUrl.startsWith('https:');
  // A callback hook, not an async one: no promise per request (an error thrown here still becomes the answer).
  app.addHook('onRequest', (request, reply, done) => {
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(XSRF_COOKIE, newToken(), {
        path: '/',
        sameSite: 'lax',
        secure,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(request.method) || !isApiRoute(request.routeOptions.url)) return done();
    // A native app's route: no cookie carries its credential, so there is nothing to forge from another site.
    if (request.routeOptions.config.appRoute) return done();
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
      throw new HttpError(403, 'XSRF_FAILED', 'Missing or wrong X-XSRF-TOKEN header; reload the page');
    }
    done();
  });
}
