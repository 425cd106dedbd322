import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_VERSION, checkVersion, getVersionState, startVersionPolling } from './version-check.ts';

const served = (version: string, maintenance = false) =>
  vi.fn(async () => new Response(JSON.stringify({ data: { version, maintenance } }), { status: 200 }));

describe('version check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('builds in 2.6.0 with a build suffix', () => {
    expect(BUILT_IN_VERSION).toMatch(/^2\.6\.0\+[0-9A-Za-z.-]+$/);
  });

  it('asks without cache and finds nothing new for the same version', async () => {
    const fetchMock = served(BUILT_IN_VERSION);
    await checkVersion(fetchMock);
    expect(fetchMock).toHaveBeenCalledWith('/version.json', expect.objectContaining({ cache: 'no-store' }));
    expect(getVersionState()).toEqual({ newVersionAvailable: false, maintenance: false, checked: true });
  });

  it('compares the full string, build suffix included', async () => {
    await checkVersion(served('2.6.0+other'));
    expect(getVersionState().newVersionAvailable).toBe(true);
    await checkVersion(served(BUILT_IN_VERSION));
    expect(getVersionState().newVersionAvailable).toBe(false);
  });

  it('treats a failed check as a new version and keeps the maintenance flag', async () => {
    await checkVersion(served(BUILT_IN_VERSION, true));
    await checkVersion(vi.fn(async () => new Response('down', { status: 503 })));
    expect(getVersionState()).toMatchObject({ newVersionAvailable: true, maintenance: true });
    await checkVersion(vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(getVersionState().newVersionAvailable).toBe(true);
    await checkVersion(served(BUILT_IN_VERSION, false));
    expect(getVersionState()).toMatchObject({ newVersionAvailable: false, maintenance: false });
  });

  it('polls at once and then every 30 s', async () => {
    const fetchMock = served(BUILT_IN_VERSION);
    const stop = startVersionPolling(fetchMock);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    stop();
  });
});
