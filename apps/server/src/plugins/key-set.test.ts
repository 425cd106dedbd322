import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshingLocalJwks } from './authenticate.ts';

async function signingKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const sign = () => new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
  return { jwk, sign };
}

describe("the embedded provider's key set at the API", () => {
  afterEach(() => vi.useRealTimers());

  it('reads a new key when a token names it, and lets a retired key go within a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    const [oldKey, newKey] = [await signingKey('old'), await signingKey('new')];
    let published = [oldKey.jwk];
    const load = vi.fn(async () => ({ keys: published }));
    const getKey = refreshingLocalJwks(load);

    const oldToken = await oldKey.sign();
    await jwtVerify(oldToken, getKey);
    expect(load).toHaveBeenCalledTimes(1);

    // Rotated elsewhere: a token of the new key makes the set load again (after the short guard interval).
    published = [newKey.jwk, oldKey.jwk];
    vi.advanceTimersByTime(10_000);
    await jwtVerify(await newKey.sign(), getKey);
    expect(load).toHaveBeenCalledTimes(2);
    await jwtVerify(oldToken, getKey);

    // The old key leaves the set: after a minute it no longer verifies here either.
    published = [newKey.jwk];
    vi.advanceTimersByTime(61_000);
    // (An unknown key id read again right after a read waits out the guard interval, then reads once more.)
    const outcome = jwtVerify(oldToken, getKey).then(
      () => 'accepted',
      () => 'refused',
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await outcome).toBe('refused');
    expect(load).toHaveBeenCalledTimes(4);
  });
});
