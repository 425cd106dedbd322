import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: below about one network packet, compressing gains nothing. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Answers the server makes up per request (API JSON, error answers, the docs and metrics) are compressed with brotli
 * or gzip, as the request's Accept-Encoding allows, once they reach COMPRESS_THRESHOLD bytes, with
 * `Vary: Accept-Encoding`. Rules:
 * - an answer that already has a Content-Encoding (the built files the SPA plugin sends precompressed, index.html)
 *   is left as it is, never compressed twice;
 * - the sign-in service's answers are never compressed: its pages carry secrets (reset keys, interaction ids, tokens)
 *   beside input the user typed, which compression would let an eavesdropper guess by size (BREACH); they are small;
 * - server-sent events (text/event-stream) are never compressed (the plugin's default), so each event is delivered
 *   when it is written;
 * - request bodies are not decompressed: clients send plain JSON and forms.
 * Registered before any route: it hooks into each route as the route is added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/realms/')) route.compress = false;
  });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    globalDecompression: false,
  });
}
