import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  createSecrets,
  DEVELOPMENT_KEY_ID,
  isSealed,
  parseSecretsKeys,
  SecretsError,
  type SecretsKey,
} from './secrets.ts';

const key = (id: string): SecretsKey => ({ id, key: crypto.randomBytes(32) });
const PURPOSE = 'idp_secrets:cookie-keys';

/** Replaces one base64url part of a sealed value (1 iv, 2 ciphertext, 3 tag) with a changed copy. */
function tamper(sealed: string, part: 1 | 2 | 3): string {
  const pieces = sealed.split(':');
  const bytes = Buffer.from(pieces[2 + part]!, 'base64url');
  bytes[0]! ^= 1;
  pieces[2 + part] = bytes.toString('base64url');
  return pieces.join(':');
}

describe('secrets helper', () => {
  it('seals with the current key (id stored with the value) and opens for the same purpose', () => {
    const secrets = createSecrets([key('k1')]);
    const sealed = secrets.seal('top secret', PURPOSE);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).toMatch(/^enc:v1:k1:/);
    expect(sealed).not.toContain('top secret');
    expect(secrets.seal('top secret', PURPOSE)).not.toBe(sealed); // a fresh nonce each time
    expect(secrets.open(sealed, PURPOSE)).toBe('top secret');
  });

  it('detects tampering with the nonce, the ciphertext, the tag or the key id', () => {
    const k1 = key('k1');
    const secrets = createSecrets([k1, { id: 'k0', key: k1.key }]);
    const sealed = secrets.seal('top secret', PURPOSE);
    for (const part of [1, 2, 3] as const) {
      expect(() => secrets.open(tamper(sealed, part), PURPOSE)).toThrow(SecretsError);
    }
    // The same key material under another id: the id is authenticated too.
    expect(() => secrets.open(sealed.replace(':k1:', ':k0:'), PURPOSE)).toThrow(SecretsError);
    expect(() => secrets.open('enc:v1:k1:abc', PURPOSE)).toThrow(SecretsError);
  });

  it('does not open a value moved to another purpose (row or field)', () => {
    const secrets = createSecrets([key('k1')]);
    const sealed = secrets.seal('top secret', 'idp_secrets:signing-keys');
    expect(() => secrets.open(sealed, PURPOSE)).toThrow(/another purpose/);
  });

  it('rotates: a new first key seals, older keys still open, reseal moves values to the new key', () => {
    const k0 = key('k0');
    const old = createSecrets([k0]);
    const sealed = old.seal('top secret', PURPOSE);
    expect(old.reseal(sealed, PURPOSE)).toBeNull();

    const rotated = createSecrets([key('k1'), k0]);
    expect(rotated.currentKeyId).toBe('k1');
    expect(rotated.open(sealed, PURPOSE)).toBe('top secret');
    const resealed = rotated.reseal(sealed, PURPOSE)!;
    expect(resealed).toMatch(/^enc:v1:k1:/);
    expect(rotated.open(resealed, PURPOSE)).toBe('top secret');
    expect(rotated.reseal(resealed, PURPOSE)).toBeNull();

    // Once every value is resealed the old key can go; a value still under it then names the missing key.
    const withoutOld = createSecrets([key('k1')]);
    expect(() => withoutOld.open(sealed, PURPOSE)).toThrow(/"k0", which SECRETS_KEYS does not hold/);
  });

  it('parses SECRETS_KEYS: id:base64 of 32 bytes, newest first, no repeated ids', () => {
    const a = crypto.randomBytes(32).toString('base64');
    const b = crypto.randomBytes(32).toString('base64');
    expect(parseSecretsKeys(`k2:${a}, k1:${b}`).map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(() => parseSecretsKeys(`k1:${a.slice(0, 20)}`)).toThrow(/32 bytes/);
    expect(() => parseSecretsKeys(a)).toThrow(/<id>:/);
    expect(() => parseSecretsKeys(`k1:${a},k1:${b}`)).toThrow(/repeat/);
    expect(() => parseSecretsKeys(' , ')).toThrow(/at least one/);
  });
});

describe('secrets key configuration', () => {
  const production = [
    { PUBLIC_URL: 'https://portal.example.com' },
    { PUBLIC_URL: 'https://portal.example.com', DEMO_DATA: 'false' },
    { ENVIRONMENT: 'prod' },
    { ENVIRONMENT: 'prod', PUBLIC_URL: 'http://127.0.0.1:8080' },
  ];
  it.each(production)('refuses to start in production without SECRETS_KEYS and says why: %o', (env) => {
    expect(() => loadConfig(env)).toThrow(/SECRETS_KEYS is required in production.*encrypts the secrets/);
  });

  it('uses the configured keys in production, and refuses a malformed one', () => {
    const raw = `k1:${crypto.randomBytes(32).toString('base64')}`;
    const config = loadConfig({ PUBLIC_URL: 'https://portal.example.com', SECRETS_KEYS: raw });
    expect(config.secrets).toMatchObject({ development: false, keys: [{ id: 'k1' }] });
    expect(() => loadConfig({ ENVIRONMENT: 'prod', SECRETS_KEYS: 'k1:short' })).toThrow(
      /SECRETS_KEYS key "k1" must be 32 bytes/,
    );
  });

  it("keeps a developer's start working with the marked development key (loopback, or a forced demo)", () => {
    for (const env of [
      {},
      { ENVIRONMENT: 'dev' },
      { PUBLIC_URL: 'https://demo.example', DEMO_DATA: 'force' },
    ]) {
      const config = loadConfig(env);
      expect(config.secrets).toMatchObject({ development: true, keys: [{ id: DEVELOPMENT_KEY_ID }] });
    }
  });
});
