import type { FastifyInstance } from 'fastify';
import { createSecrets, type Secrets, type SecretsKey } from '../secrets/secrets.ts';

/** Values shorter than this are too common to mean a leak (a flag, a short code). */
const MIN_SECRET_LENGTH = 8;
/** Answers larger than this (PDFs, exports) are not kept; secrets travel in JSON and HTML. */
const MAX_KEPT_ANSWER = 1024 * 1024;

/**
 * The one answer that exists to show a stored secret to its owner: setting up an authenticator app answers the new
 * secret (as text and QR code) so the person can add it to the app. Secrets of that purpose may appear in that
 * answer only; every other answer is still checked for them, and every other secret in every answer.
 */
const DISCLOSURES: { route: RegExp; purpose: RegExp }[] = [
  { route: /^POST \/api\/users\/v1\/me\/security\/totp$/, purpose: /^idp_totp:/ },
];

/**
 * Watches one API suite for stored secrets reaching a client: records every plaintext the areas seal or open
 * through `deps.secrets` (cloud tokens, shop keys…) and every answer the apps send, and fails when an answer
 * contains one of those plaintexts. Every suite built with `describeApi` runs it, so the whole API suite is the test.
 */
export class SecretLeakGuard {
  /** Each recorded plaintext with the purposes it was sealed or opened for. */
  private readonly plaintexts = new Map<string, Set<string>>();
  private readonly answers: { route: string; body: string }[] = [];

  /** The secrets helper for an app, recording what passes through it. */
  recording(keys: SecretsKey[]): Secrets {
    const inner = createSecrets(keys);
    const remember = (value: string, purpose: string) => {
      if (value.length >= MIN_SECRET_LENGTH) {
        this.plaintexts.set(value, (this.plaintexts.get(value) ?? new Set()).add(purpose));
      }
      return value;
    };
    return {
      get currentKeyId() {
        return inner.currentKeyId;
      },
      seal: (plaintext, purpose) => inner.seal(remember(plaintext, purpose), purpose),
      open: (sealed, purpose) => remember(inner.open(sealed, purpose), purpose),
      reseal: (sealed, purpose) => inner.reseal(sealed, purpose),
    };
  }

  /** Keeps every answer `app` sends (text and JSON, up to a size). */
  watch(app: FastifyInstance): void {
    app.addHook('onSend', async (request, _reply, payload) => {
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      if (body !== null && body.length <= MAX_KEPT_ANSWER) {
        this.answers.push({ route: `${request.method} ${request.url}`, body });
      }
      return payload;
    });
  }

  /** Throws naming the answer and the kind of value when a recorded secret appears in any kept answer. */
  assertNoLeaks(): void {
    for (const [secret, purposes] of this.plaintexts) {
      const disclosed = (route: string) =>
        DISCLOSURES.some(
          (d) => d.route.test(route) && [...purposes].every((purpose) => d.purpose.test(purpose)),
        );
      const leak = this.answers.find((answer) => answer.body.includes(secret) && !disclosed(answer.route));
      if (leak) {
        throw new Error(
          `A stored secret (${secret.length} characters, starting "${secret.slice(0, 3)}…") was sent in the answer to ${leak.route}`,
        );
      }
    }
  }
}
