import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, type PublicConfig, type RoutePreloads } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../http/html.ts';
import { plainNotFound } from '../http/errors.ts';
import { apiNotFound } from './error-handler.ts';
import { languageOf, routePreloadHints } from './route-preloads.ts';

const PLACEHOLDER = '<!--portal-config-->';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * index.html with the public configuration as `<meta name="portal-config">` (the SPA reads only that), and the brand
 * colour as the browser's theme colour and as `--brand` for the loading indicator shown before the app starts.
 */
export function injectConfig(html: string, config: PublicConfig): string {
  const color = escapeHtml(config.brandColor);
  const meta =
    `<meta name="portal-config" content="${escapeHtml(JSON.stringify(config))}" />` +
    `<meta name="theme-color" content="${color}" /><style>:root{--brand:${color}}</style>`;
  return html.includes(PLACEHOLDER)
    ? html.replace(PLACEHOLDER, meta)
    : html.replace('</head>', `${meta}</head>`);
}

/**
 * The policy index.html goes out with: the app's policy, and index.html's own inline scripts allowed by their hashes
 * (the first loads' script, decision 266). No other inline script runs.
 */
export function allowInlineScripts(policy: string, html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
  if (hashes.length === 0) return policy;
  return policy.replace(
    /script-src ([^;]*)/,
    (_, sources: string) => `script-src ${sources} ${hashes.join(' ')}`,
  );
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal is not built</title></head>
<body><h1>The web app is not built yet</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds
first), then restart the server.</p></body></html>`;

/**
 * index.html in every encoding the server offers, made once at start: it is the built file with the configuration
 * filled in, so the build cannot compress it ahead (the build leaves it out).
 */
function encodeIndex(html: string) {
  return {
    br: brotliCompressSync(html, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    }),
    gzip: gzipSync(html, { level: zlibConstants.Z_BEST_COMPRESSION }),
  };
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
/** Paths owned by the server itself, never the SPA's. */
const isServerPath = (url: string) => isApi(url) || url.startsWith('/realms/');

/** A source map's path, in any spelling: query ignored, percent-encoding decoded, any case. */
function isSourceMap(url: string): boolean {
  const pathName = url.split('?')[0]!;
  let decoded = pathName;
  try {
    decoded = decodeURIComponent(pathName);
  } catch {
    // An undecodable path is checked as written.
  }
  return /\.map$/i.test(decoded);
}

/**
 * The built SPA: hashed files under /assets/ cached for a year, everything else revalidated; unknown GET paths
 * that accept HTML get index.html (client-side routes), with `modulepreload` hints for the address's route and the
 * texts of the language the app last used (its cookie; route-preloads.ts); unknown API paths get a JSON 404.
 * Files are sent as the build compressed them (`.br`, `.gz` beside each), the encoding chosen by the request's
 * Accept-Encoding, with `Vary: Accept-Encoding`; without a compressed copy the file goes out as it is.
 * Source maps (`*.map`) are built for error reporting but served only outside production (serveSourceMaps):
 * elsewhere they answer 404, so the original sources are not published.
 */
export async function registerSpa(
  app: FastifyInstance,
  options: {
    webDist: string;
    config: PublicConfig;
    /** The app's Content-Security-Policy, which index.html's answers extend by its inline scripts' hashes. */
    contentSecurityPolicy: string;
    serveSourceMaps?: boolean;
  },
) {
  const indexFile = path.join(options.webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  const index = built ? injectConfig(fs.readFileSync(indexFile, 'utf8'), options.config) : null;
  const indexPolicy = index ? allowInlineScripts(options.contentSecurityPolicy, index) : null;
  const preloadsFile = path.join(options.webDist, 'route-preloads.json');
  const hintsFor = fs.existsSync(preloadsFile)
    ? routePreloadHints(JSON.parse(fs.readFileSync(preloadsFile, 'utf8')) as RoutePreloads)
    : () => '';
  // index.html with each set of hints, encoded on first use: a few per route and language, each about 3 KB.
  const variants = new Map<string, { html: string } & ReturnType<typeof encodeIndex>>();
  const variant = (hints: string) => {
    let found = variants.get(hints);
    if (!found) {
      const html = index!.replace('</head>', `${hints}</head>`);
      found = { html, ...encodeIndex(html) };
      variants.set(hints, found);
    }
    return found;
  };
  const encodings = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    if (!index) {
      return reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT);
    }
    const language = languageOf(request.cookies[LANGUAGE_COOKIE], DEFAULT_LANGUAGE);
    const page = variant(hintsFor(request.url.split('?')[0]!, language));
    reply
      .header('Content-Security-Policy', indexPolicy!)
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding, Cookie')
      .type('text/html; charset=utf-8');
    const accepted = request.headers['accept-encoding'];
    const encoding = accepted ? encodings.negotiate(accepted) : null;
    if (!encoding) return reply.send(page.html);
    return reply.header('Content-Encoding', encoding).send(page[encoding]);
  };

  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      index: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      // The decoded, normalised path is checked, so an encoded spelling of `.map` is refused too.
      allowedPath: (pathName) => options.serveSourceMaps === true || !isSourceMap(pathName),
      setHeaders(reply, filePath) {
        // The path of the file sent: for a compressed copy, the copy's (same folder as the original).
        const rel = path.relative(options.webDist, filePath);
        reply.header('Cache-Control', rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.get('/', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply));
  app.get('/index.html', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply));

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (isApi(request.url)) return apiNotFound(reply);
    const wantsHtml = request.headers.accept?.includes('text/html') ?? false;
    const clientRoute = !isServerPath(request.url) && !isSourceMap(request.url);
    if ((request.method === 'GET' || request.method === 'HEAD') && wantsHtml && clientRoute) {
      return sendIndex(request, reply);
    }
    return plainNotFound(reply);
  });
}
