import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { endSession, revokeGrant } from './realm.ts';

export interface TokenLogoutDeps {
  provider: Provider;
  db: Db;
}

type Form = Record<string, unknown>;

const field = (form: Form, name: string) => (typeof form[name] === 'string' ? form[name] : undefined);

/** Origins of the client's redirect URIs: the pages that may call it from a browser (as the token endpoint). */
function originAllowed(client: { redirectUris?: readonly string[] }, origin: string): boolean {
  return (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin);
}

/**
 * Keycloak's logout without a browser redirect: `POST …/logout` with `client_id` and `refresh_token` ends the SSO
 * session the refresh token belongs to, with every grant of it and everything issued under them, and answers
 * 204. A missing, unknown, used, expired or foreign token answers 400 `invalid_grant` (Keycloak's JSON), and so
 * does a token whose session has already ended. The SPA calls it when the inactivity countdown ends: its refresh
 * token looks like a JWT, so the revocation endpoint refuses it ("Structured JWT Tokens cannot be revoked").
 */
export async function logoutByRefreshToken(
  { provider, db }: TokenLogoutDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  form: Form,
): Promise<FastifyReply> {
  void reply.header('cache-control', 'no-store').header('vary', 'Origin');
  const fail = (status: number, error: string, description: string) =>
    reply.code(status).send({ error, error_description: description });

  const clientId = field(form, 'client_id');
  const client = clientId ? await provider.Client.find(clientId).catch(() => undefined) : undefined;
  if (!client) return fail(401, 'invalid_client', 'Invalid client or Invalid client credentials');

  const origin = request.headers.origin;
  if (origin) {
    if (!originAllowed(client, origin)) {
      return fail(400, 'invalid_request', `origin ${origin} not allowed for client: ${client.clientId}`);
    }
    void reply.header('access-control-allow-origin', origin);
  }

  const value = field(form, 'refresh_token');
  if (!value) return fail(400, 'invalid_request', 'No refresh token');
  // find() also checks the session binding: a token whose session has ended is not found.
  const token = await provider.RefreshToken.find(value);
  if (!token || token.clientId !== client.clientId || !token.isValid) {
    return fail(400, 'invalid_grant', 'Invalid refresh token');
  }

  const session = token.sessionUid ? await provider.Session.findByUid(token.sessionUid) : undefined;
  if (session && session.accountId === token.accountId) await endSession(db, session);
  if (token.grantId) await revokeGrant(db, token.grantId);
  request.log.info({ accountId: token.accountId, clientId: client.clientId }, 'signed out by refresh token');
  return reply.code(204).send();
}

/** CORS preflight for the logout call: only the portal client's origins (the client is not known yet). */
export function logoutPreflight(
  allowedOrigins: ReadonlySet<string>,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const origin = request.headers.origin;
  void reply.header('vary', 'Origin');
  if (origin && allowedOrigins.has(origin) && request.headers['access-control-request-method']) {
    void reply
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-max-age', '3600');
    const headers = request.headers['access-control-request-headers'];
    if (headers) void reply.header('access-control-allow-headers', headers);
  }
  return reply.code(204).send();
}
