import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { PublicConfig } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../http/html.ts';
import { apiNotFound } from './error-handler.ts';

const PLACEHOLDER = '<!--portal-config-->';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** index.html with the public configuration as `<meta name="portal-config">` (the SPA reads only that). */
export function injectConfig(html: string, config: PublicConfig): string {
  const meta = `<meta name="portal-config" content="${escapeHtml(JSON.stringify(config))}" />`;
  return html.includes(PLACEHOLDER)
    ? html.replace(PLACEHOLDER, meta)
    : html.replace('</head>', `${meta}</head>`);
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal is not built</title></head>
<body><h1>The web app is not built yet</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds
first), then restart the server.</p></body></html>`;

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
/** Paths owned by the server itself, never the SPA's. */
const isServerPath = (url: string) => isApi(url) || url.startsWith('/realms/');

/**
 * The built SPA: hashed files under /assets/ cached for a year, everything else revalidated; unknown GET paths
 * that accept HTML get index.html (client-side routes); unknown API paths get a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, options: { webDist: string; config: PublicConfig }) {
  const indexFile = path.join(options.webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  const index = built ? injectConfig(fs.readFileSync(indexFile, 'utf8'), options.config) : null;

  const sendIndex = (reply: FastifyReply) => {
    if (!index) {
      return reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT);
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
  };

  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        const rel = path.relative(options.webDist, filePath);
        reply.header('Cache-Control', rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.get('/index.html', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (isApi(request.url)) return apiNotFound(reply);
    const wantsHtml = request.headers.accept?.includes('text/html') ?? false;
    if ((request.method === 'GET' || request.method === 'HEAD') && wantsHtml && !isServerPath(request.url)) {
      return sendIndex(reply);
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
