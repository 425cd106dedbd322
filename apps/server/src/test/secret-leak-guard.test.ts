import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../modules/deps.ts';
import { TestApi } from './api.ts';

const SECRET = 'shop-api-key-0123456789';

/** A test app whose `routes` use the app's recording secrets helper. */
async function startWith(routes: (app: FastifyInstance, secrets: () => ModuleDeps['secrets']) => void) {
  let secrets!: ModuleDeps['secrets'];
  const api = new TestApi('pglite');
  await api.start({
    modules: [
      (deps) => {
        secrets = deps.secrets;
      },
    ],
    prepare: (app) => routes(app, () => secrets),
  });
  return api;
}

describe('secret leak guard of the API suites', () => {
  it('fails the suite when an answer contains a value the app sealed, and passes when it shows only a hint', async () => {
    // A route that stores a secret and, wrongly, answers with it (or, rightly, with its last four characters).
    const api = await startWith((app, secrets) => {
      app.get('/test/leak', async () => ({ sealed: secrets().seal(SECRET, 'test:leak'), key: SECRET }));
      app.get('/test/hint', async () => ({
        sealed: secrets().seal(SECRET, 'test:hint'),
        last4: SECRET.slice(-4),
      }));
    });
    expect((await api.request('GET', '/test/hint')).statusCode).toBe(200);
    expect(() => api.leaks.assertNoLeaks()).not.toThrow();

    expect((await api.request('GET', '/test/leak')).statusCode).toBe(200);
    await expect(api.stop()).rejects.toThrow(
      /stored secret \(23 characters, starting "sho…"\) was sent in the answer to GET \/test\/leak/,
    );
  });
});

describe('secret leak guard: the authenticator-app secret', () => {
  it('may appear only in the answer that sets the app up, nowhere else', async () => {
    const api = await startWith((app, secrets) => {
      app.get('/test/totp-elsewhere', async () => ({
        secret: secrets().open(secrets().seal(SECRET, 'idp_totp:x'), 'idp_totp:x'),
      }));
    });
    expect((await api.request('GET', '/test/totp-elsewhere')).statusCode).toBe(200);
    await expect(api.stop()).rejects.toThrow(/was sent in the answer to GET \/test\/totp-elsewhere/);
  });
});
