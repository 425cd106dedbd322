import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTokenRefresh, type RefreshableClient } from './token-refresh.ts';

/** A fake keycloak client whose token lives `lifetimeS` seconds from each successful refresh. */
function fakeClient(lifetimeS: number, refresh: () => Promise<void> = async () => {}) {
  let expiresAt = Date.now() + lifetimeS * 1000;
  const client: RefreshableClient & { refreshes: number } = {
    refreshes: 0,
    isTokenExpired: (minValidity = 0) => expiresAt - Date.now() < minValidity * 1000,
    updateToken: async () => {
      client.refreshes += 1;
      await refresh();
      expiresAt = Date.now() + lifetimeS * 1000;
      return true;
    },
  };
  return client;
}

const httpError = (status: number) => Object.assign(new Error('bad'), { response: { status } });

describe('token refresh', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks every 3 s and refreshes only once the token expires within 70 s', async () => {
    const client = fakeClient(300);
    const onRefreshed = vi.fn();
    const stop = startTokenRefresh(client, { onRefreshed, onSessionEnded: vi.fn() });
    // 300 s token: 230 s is the last moment with ≥ 70 s left.
    await vi.advanceTimersByTimeAsync(228_000);
    expect(client.refreshes).toBe(0);
    await vi.advanceTimersByTimeAsync(3_000); // t = 231 s, 69 s left
    expect(client.refreshes).toBe(1);
    expect(onRefreshed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(client.refreshes).toBe(1);
    stop();
  });

  it('does not check between the 3 s ticks', async () => {
    const client = fakeClient(60); // already inside the window
    const stop = startTokenRefresh(client, { onRefreshed: vi.fn(), onSessionEnded: vi.fn() });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(client.refreshes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.refreshes).toBe(1);
    stop();
  });

  it('ends the session when the provider answers 400', async () => {
    const client = fakeClient(60, () => Promise.reject(httpError(400)));
    const onSessionEnded = vi.fn();
    startTokenRefresh(client, { onRefreshed: vi.fn(), onSessionEnded });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onSessionEnded).toHaveBeenCalledWith('rejected');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(client.refreshes).toBe(1);
  });

  it('keeps retrying on other failures until the token really expires', async () => {
    const client = fakeClient(20, () => Promise.reject(httpError(503)));
    const onSessionEnded = vi.fn();
    startTokenRefresh(client, { onRefreshed: vi.fn(), onSessionEnded });
    await vi.advanceTimersByTimeAsync(18_000); // six failed attempts, token still valid
    expect(client.refreshes).toBe(6);
    expect(onSessionEnded).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_000); // t = 21 s: expired
    expect(onSessionEnded).toHaveBeenCalledWith('expired');
    await vi.advanceTimersByTimeAsync(9_000);
    expect(client.refreshes).toBe(7);
  });

  it('recovers when a failed refresh succeeds at a later check', async () => {
    let fail = true;
    const client = fakeClient(60, () =>
      fail ? Promise.reject(new TypeError('offline')) : Promise.resolve(),
    );
    const onRefreshed = vi.fn();
    const onSessionEnded = vi.fn();
    const stop = startTokenRefresh(client, { onRefreshed, onSessionEnded });
    await vi.advanceTimersByTimeAsync(3_000);
    fail = false;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onRefreshed).toHaveBeenCalledTimes(1);
    expect(onSessionEnded).not.toHaveBeenCalled();
    stop();
  });
});
