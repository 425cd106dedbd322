import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client.ts';
import { LiveHub, type LiveEvent, type LiveSubscriber } from './live.ts';
import { NOTIFICATIONS_CHANNEL } from './notifier.ts';

/** A database that only listens: the test sends payloads, drops the connection and refuses to listen again. */
function listeningDb() {
  const state = {
    onPayload: null as ((payload: string) => void) | null,
    onLost: null as ((error: Error) => void) | null,
    refuse: 0,
    listens: 0,
    unlistens: 0,
  };
  const db = {
    async listen(channel: string, onPayload: (payload: string) => void, onLost?: (error: Error) => void) {
      expect(channel).toBe(NOTIFICATIONS_CHANNEL);
      state.listens += 1;
      if (state.refuse > 0) {
        state.refuse -= 1;
        throw new Error('connection refused');
      }
      state.onPayload = onPayload;
      state.onLost = onLost ?? null;
      return async () => {
        state.unlistens += 1;
      };
    },
    async query() {
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Db;
  return { db, state };
}

function subscriber() {
  const events: LiveEvent[] = [];
  const calls = { heartbeats: 0, closed: 0 };
  const value: LiveSubscriber = {
    deliver: (event) => events.push(event),
    heartbeat: () => (calls.heartbeats += 1),
    close: () => (calls.closed += 1),
  };
  return { value, events, calls };
}

describe('live hub', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes `changed` to the streams of that user only, and ignores payloads it does not understand', async () => {
    const { db, state } = listeningDb();
    const hub = new LiveHub(db);
    await hub.start();
    const alice = subscriber();
    const bob = subscriber();
    hub.subscribe('alice', alice.value);
    hub.subscribe('bob', bob.value);
    for (const payload of ['not json', '{}', '{"userUuid":"alice","id":"1; drop"}', '{"userUuid":"alice"}'])
      state.onPayload!(payload);
    expect(alice.events).toEqual([{ kind: 'changed' }]);
    expect(bob.events).toEqual([]);
    await hub.stop();
  });

  it('sends a heartbeat to every stream, and ends them all when it stops', async () => {
    const { db, state } = listeningDb();
    const hub = new LiveHub(db, { heartbeatMs: 1000 });
    await hub.start();
    const streams = [subscriber(), subscriber()];
    const unsubscribe = hub.subscribe('alice', streams[0]!.value);
    hub.subscribe('bob', streams[1]!.value);
    await vi.advanceTimersByTimeAsync(2000);
    expect(streams.map((stream) => stream.calls.heartbeats)).toEqual([2, 2]);
    unsubscribe();
    expect(hub.count('alice')).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(streams.map((stream) => stream.calls.heartbeats)).toEqual([2, 3]);
    await hub.stop();
    expect(streams.map((stream) => stream.calls.closed)).toEqual([0, 1]);
    expect(hub.open).toBe(false);
    expect(state.unlistens).toBe(1);
  });

  it('listens again with growing waits after losing the connection, then tells every stream to resync', async () => {
    const { db, state } = listeningDb();
    const hub = new LiveHub(db, { retryMs: 100, maxRetryMs: 1000 });
    await hub.start();
    const stream = subscriber();
    hub.subscribe('alice', stream.value);
    state.refuse = 2;
    state.onLost!(new Error('terminated'));
    // 100 ms, refused; 200 ms, refused; 400 ms, listening.
    await vi.advanceTimersByTimeAsync(100);
    expect(state.listens).toBe(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(state.listens).toBe(3);
    expect(stream.events).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(state.listens).toBe(4);
    expect(stream.events).toEqual([{ kind: 'resync' }]);
    // Listening again, the signals flow as before.
    state.onPayload!('{"userUuid":"alice"}');
    expect(stream.events).toEqual([{ kind: 'resync' }, { kind: 'changed' }]);
    await hub.stop();
  });

  it('keeps trying when the database refuses at start, without failing the start', async () => {
    const { db, state } = listeningDb();
    state.refuse = 1;
    const hub = new LiveHub(db, { retryMs: 100 });
    await hub.start();
    expect(hub.open).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(state.listens).toBe(2);
    expect(state.onPayload).not.toBeNull();
    await hub.stop();
  });
});
