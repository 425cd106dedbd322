/**
 * The bare stack the API is measured against (`npm run bench`, e2e/bench/me.ts): Fastify, jose and the database
 * driver doing what GET /api/users/v1/me must do at least, and nothing else: verify the Bearer token against the
 * provider's keys (issuer, audience, algorithm, expiry), select the user by the token's subject, answer JSON.
 * Started as a child process; PORT, ISSUER, AUDIENCE, JWKS_URL and DATABASE_URL (postgres://…, or `snapshot` for
 * PGlite started from the tests' seeded snapshot) come from the environment.
 */
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import pg from 'pg';
import { pgliteSnapshot } from '../test/snapshot.ts';

const env = (name: string) => process.env[name] ?? '';
const keys = createLocalJWKSet((await (await fetch(env('JWKS_URL'))).json()) as JSONWebKeySet);
const SELECT = 'select uuid, email, name, language from users where subject = $1';

const query: (subject: string) => Promise<unknown> =
  env('DATABASE_URL') === 'snapshot'
    ? await (async () => {
        const db = await PGlite.create(undefined, {
          loadDataDir: new Blob([new Uint8Array(await pgliteSnapshot())]),
        });
        return async (subject: string) => (await db.query(SELECT, [subject])).rows[0];
      })()
    : (() => {
        const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 10 });
        return async (subject: string) => (await pool.query(SELECT, [subject])).rows[0];
      })();

const app = Fastify();
app.get('/me', async (request, reply) => {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ error: 'no token' });
  const { payload } = await jwtVerify(token, keys, {
    issuer: env('ISSUER'),
    audience: env('AUDIENCE'),
    algorithms: ['RS256', 'ES256', 'PS256'],
  });
  const user = await query(payload.sub!);
  if (!user) return reply.code(404).send({ error: 'no user' });
  return { data: user };
});
await app.listen({ host: '127.0.0.1', port: Number(env('PORT')) });
process.send?.('listening');
