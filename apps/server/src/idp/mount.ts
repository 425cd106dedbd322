import { IncomingMessage } from 'node:http';
import querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { containsForbiddenText } from '../http/text.ts';

/** How a realm of the embedded provider is mounted on the server: the handoff to oidc-provider and its bodies. */

/** Whether a request to the provider's endpoints carries text the server's text rule refuses (query or body). */
export function refusesText(request: FastifyRequest): boolean {
  const body = request.body;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    const isJson = request.headers['content-type']?.includes('json') ?? false;
    try {
      parsed = isJson ? JSON.parse(body) : querystring.parse(body);
    } catch {
      parsed = undefined; // not JSON: the provider refuses it itself
    }
  }
  // The query as the provider decodes it (node:querystring, lenient with malformed escapes), not as Fastify did.
  const at = request.url.indexOf('?');
  const rawQuery = at < 0 ? '' : request.url.slice(at + 1);
  return containsForbiddenText([querystring.parse(rawQuery), parsed]);
}

/** The protocol endpoints' answer (OAuth's error shape) to text the rule refuses. */
export const refuseText = (reply: FastifyReply) =>
  reply.code(400).header('cache-control', 'no-store').send({
    error: 'invalid_request',
    error_description:
      'The request contains characters that are not allowed (control or text-direction characters)',
  });

/**
 * Hands a request to oidc-provider mounted at `realmPath`: reply hijacked, prefix stripped, `originalUrl` kept for
 * its own URLs.
 */
export function providerHandoff(provider: Provider, realmPath: string) {
  const callback = provider.callback();
  return (request: FastifyRequest, reply: FastifyReply, parsedBody?: unknown) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    // The provider reads scheme, host and client address from the forwarded headers (it runs in proxy mode); they
    // are replaced by what Fastify decided, which honours a forwarded header only from a proxy TRUST_PROXY trusts.
    raw.headers['x-forwarded-proto'] = request.protocol;
    raw.headers['x-forwarded-host'] = request.host;
    raw.headers['x-forwarded-for'] = request.ip;
    raw.url = raw.url!.slice(realmPath.length) || '/';
    // Its security headers are on the raw response already (plugins/security-headers.ts, when the request came in).
    void callback(parsedBody === undefined ? raw : replay(raw, parsedBody), reply.raw);
    return reply;
  };
}

/**
 * The request again, its body (read by Fastify for the text rule) as a fresh stream of the same text: the provider
 * parses bodies itself, from the stream, and only warns when something else parsed them first.
 */
function replay(raw: IncomingMessage & { originalUrl?: string }, body: unknown): IncomingMessage {
  const text =
    typeof body === 'string' ? body : new URLSearchParams(body as Record<string, string>).toString();
  const bytes = Buffer.from(text);
  const again = Object.assign(new IncomingMessage(raw.socket), {
    method: raw.method,
    url: raw.url,
    originalUrl: raw.originalUrl,
    httpVersion: raw.httpVersion,
    httpVersionMajor: raw.httpVersionMajor,
    httpVersionMinor: raw.httpVersionMinor,
    headers: { ...raw.headers, 'content-length': String(bytes.length) },
    rawHeaders: raw.rawHeaders,
    // Read in full already: ending this stream must not end the connection as an aborted request would.
    complete: true,
  });
  again.push(bytes);
  again.push(null);
  return again;
}

/** Form bodies of a realm's own pages, parsed in the plugin scope `scope`. */
export function parseForms(scope: FastifyInstance): void {
  if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
  }
}

/**
 * Everything else under the realm goes to oidc-provider. Form and JSON bodies are read here as text, so that the
 * server's text rule sees them; the provider parses that same text itself. Other bodies it reads raw.
 */
export async function mountProvider(
  app: FastifyInstance,
  realmPath: string,
  toProvider: ReturnType<typeof providerHandoff>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'application/json'],
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${realmPath}/*`, (request, reply) => {
      if (refusesText(request)) return refuseText(reply);
      toProvider(request, reply, request.body ?? undefined);
    });
  });
}
