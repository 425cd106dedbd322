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
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(XSRF_COOKIE, crypto.randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'lax',
        secure,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(request.method) || !isApiRoute(request.routeOptions.url)) return;
    // A native app's route: no cookie carries its credential, so there is nothing to forge from another site.
    if (request.routeOptions.config.appRoute) return;
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
      throw new HttpError(403, 'XSRF_FAILED', 'Missing or wrong X-XSRF-TOKEN header; reload the page');
    }
  });
}
