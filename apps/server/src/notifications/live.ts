import { LIVE_HEARTBEAT_MS, LIVE_STREAMS_PER_USER, type LiveNotification } from '@portal/contract';
import type { Db, Queryable, Unlisten } from '../db/client.ts';
import { NOTIFICATIONS_CHANNEL, type NotificationSignal } from './notifier.ts';
import { iso } from '../db/iso.ts';
import { SSE_RECONNECT_MS } from './sse.ts';

/** What the hub hands a user's open streams. */
export type LiveEvent =
  | { kind: 'notification'; id: string; notification: LiveNotification }
  | { kind: 'changed' }
  /** Signals may have been lost (the listening connection dropped, a read failed): the stream catches up. */
  | { kind: 'resync' };

/** One open stream of a user, as the hub sees it. */
export interface LiveSubscriber {
  deliver(event: LiveEvent): void;
  /** A keep-alive comment; also the moment a stream checks what it has to check now and then. */
  heartbeat(): void;
  /**
   * End the stream now: its token expired, or (with `reconnectMs`) the instance is shutting down and the client
   * is to reconnect after about that long.
   */
  close(reconnectMs?: number): void;
}

interface LiveLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface LiveOptions {
  log: LiveLog;
  heartbeatMs: number;
  maxStreamsPerUser: number;
  /** Wait before listening again after the listening connection was lost; doubles up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = {
  log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  heartbeatMs: LIVE_HEARTBEAT_MS,
  maxStreamsPerUser: LIVE_STREAMS_PER_USER,
  retryMs: 500,
  maxRetryMs: 30_000,
};

/** At most this many notifications are read in one query when many signals arrive at once. */
const READ_BATCH = 500;

interface NotificationRow {
  id: string;
  user_uuid: string;
  uuid: string;
  account_uuid: string | null;
  type: string;
  params: Record<string, unknown>;
  created_at: Date | string;
  read_at: Date | string | null;
}

function toEvent(row: NotificationRow): LiveEvent & { kind: 'notification' } {
  return {
    kind: 'notification',
    id: row.id,
    notification: {
      uuid: row.uuid,
      accountUuid: row.account_uuid,
      type: row.type,
      params: row.params,
      createdAt: iso(row.created_at),
      readAt: row.read_at === null ? null : iso(row.read_at),
    },
  };
}

const COLUMNS = 'id::text, user_uuid, uuid, account_uuid, type, params, created_at, read_at';

/**
 * The catch-up of a stream that reconnects with Last-Event-ID: the user's notifications written after `afterId`,
 * oldest first, at most `limit` (`more` when there are further ones). `newestId` is the user's newest notification
 * id, where a fresh stream starts.
 */
export async function notificationsAfter(
  db: Queryable,
  userUuid: string,
  afterId: string | null,
  limit: number,
): Promise<{ events: (LiveEvent & { kind: 'notification' })[]; more: boolean; newestId: string }> {
  const { rows: newest } = await db.query<{ id: string }>(
    'select coalesce(max(id), 0)::text as id from notifications where user_uuid = $1',
    [userUuid],
  );
  const newestId = newest[0]!.id;
  if (afterId === null) return { events: [], more: false, newestId };
  const { rows } = await db.query<NotificationRow>(
    `select ${COLUMNS} from notifications where user_uuid = $1 and id > $2::bigint order by id limit $3`,
    [userUuid, afterId, limit + 1],
  );
  return { events: rows.slice(0, limit).map(toEvent), more: rows.length > limit, newestId };
}

function parseSignal(payload: string): NotificationSignal | null {
  try {
    const value = JSON.parse(payload) as Partial<NotificationSignal>;
    if (typeof value?.userUuid !== 'string') return null;
    if (value.id !== undefined && !/^\d{1,19}$/.test(String(value.id))) return null;
    return { userUuid: value.userUuid, ...(value.id === undefined ? {} : { id: String(value.id) }) };
  } catch {
    return null;
  }
}

/**
 * The live notifications of one instance: it LISTENs once on the notifications channel (PostgreSQL: on a connection
 * of its own, listening again with backoff after losing it; PGlite: in process) and fans each signal out to the open
 * streams of that user on this instance. A new notification is read once per signal, whatever the number of the
 * user's streams; signals arriving together are read in one query. When signals may have been lost (the
 * connection dropped, a read failed) the streams concerned get `resync`.
 */
export class LiveHub {
  private readonly options: LiveOptions;
  private readonly streams = new Map<string, Set<LiveSubscriber>>();
  /** Notification ids signalled and not read yet, with their recipient. */
  private readonly pending = new Map<string, string>();
  private reading = false;
  private unlisten: Unlisten | null = null;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private failures = 0;
  private state: 'new' | 'running' | 'stopped' = 'new';

  constructor(
    private readonly db: Db,
    options: Partial<LiveOptions> = {},
  ) {
    this.options = { ...DEFAULT_LIVE_OPTIONS, ...options };
  }

  /** Starts listening (retrying in the background when the database refuses) and the heartbeat. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'running';
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
    await this.listen();
  }

  /**
   * Ends every open stream with a reconnect hint (the instance shuts down: clients come back to another one) and
   * stops listening; later subscriptions are refused.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    for (const subscribers of this.streams.values())
      for (const subscriber of subscribers) subscriber.close(SSE_RECONNECT_MS);
    this.streams.clear();
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** Whether the hub takes streams: not before start and not while the instance shuts down. */
  get open(): boolean {
    return this.state === 'running';
  }

  /** Whether signals are heard now (false while the listening connection is being restored). */
  get listening(): boolean {
    return this.unlisten !== null;
  }

  /** How many streams the user has open on this instance. */
  count(userUuid: string): number {
    return this.streams.get(userUuid)?.size ?? 0;
  }

  /** All open streams on this instance. */
  get size(): number {
    let total = 0;
    for (const subscribers of this.streams.values()) total += subscribers.size;
    return total;
  }

  get maxStreamsPerUser(): number {
    return this.options.maxStreamsPerUser;
  }

  /** Adds a stream of the user; returns the function that removes it. */
  subscribe(userUuid: string, subscriber: LiveSubscriber): () => void {
    let subscribers = this.streams.get(userUuid);
    if (!subscribers) this.streams.set(userUuid, (subscribers = new Set()));
    subscribers.add(subscriber);
    return () => {
      const current = this.streams.get(userUuid);
      if (!current?.delete(subscriber)) return;
      if (current.size === 0) this.streams.delete(userUuid);
    };
  }

  private async listen(): Promise<void> {
    if (this.state !== 'running') return;
    try {
      const unlisten = await this.db.listen(
        NOTIFICATIONS_CHANNEL,
        (payload) => this.onSignal(payload),
        (error) => this.onLost(error),
      );
      if (this.state !== 'running') {
        await unlisten();
        return;
      }
      this.unlisten = unlisten;
      if (this.failures > 0) {
        this.options.log.info({ failures: this.failures }, 'live notifications: listening again');
        // Whatever was signalled while nobody listened is in the database: every stream catches up.
        this.broadcast({ kind: 'resync' });
      }
      this.failures = 0;
    } catch (error) {
      this.onLost(error as Error);
    }
  }

  private onLost(error: Error): void {
    this.unlisten = null;
    if (this.state !== 'running') return;
    this.failures += 1;
    const wait = Math.min(this.options.retryMs * 2 ** (this.failures - 1), this.options.maxRetryMs);
    this.options.log.warn({ err: error, retryInMs: wait }, 'live notifications: not listening');
    this.retry = setTimeout(() => void this.listen(), wait);
    this.retry.unref();
  }

  private onSignal(payload: string): void {
    const signal = parseSignal(payload);
    if (!signal || !this.streams.has(signal.userUuid)) return;
    if (signal.id === undefined) {
      this.send(signal.userUuid, { kind: 'changed' });
      return;
    }
    this.pending.set(signal.id, signal.userUuid);
    void this.read();
  }

  /** Reads the signalled notifications, a batch at a time, and hands each to its recipient's streams. */
  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (this.pending.size > 0 && this.state === 'running') {
        const batch = [...this.pending].slice(0, READ_BATCH);
        for (const [id] of batch) this.pending.delete(id);
        try {
          const { rows } = await this.db.query<NotificationRow>(
            `select ${COLUMNS} from notifications where id = any($1::bigint[]) order by id`,
            [batch.map(([id]) => id)],
          );
          // The row names its recipient: a signal never sends one user's notification to another.
          for (const row of rows) this.send(row.user_uuid, toEvent(row));
        } catch (error) {
          this.options.log.error({ err: error }, 'live notifications: signalled notifications not read');
          for (const userUuid of new Set(batch.map(([, user]) => user)))
            this.send(userUuid, { kind: 'resync' });
        }
      }
    } finally {
      this.reading = false;
    }
  }

  private send(userUuid: string, event: LiveEvent): void {
    const subscribers = this.streams.get(userUuid);
    if (!subscribers) return;
    for (const subscriber of [...subscribers]) subscriber.deliver(event);
  }

  private broadcast(event: LiveEvent): void {
    for (const userUuid of [...this.streams.keys()]) this.send(userUuid, event);
  }

  private beat(): void {
    for (const subscribers of [...this.streams.values()])
      for (const subscriber of [...subscribers]) subscriber.heartbeat();
  }
}
