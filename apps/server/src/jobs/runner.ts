import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/client.ts';

/**
 * The payload type of each job kind. An area adds its kinds by declaration merging:
 *
 *     declare module '../../jobs/runner.ts' { interface JobKinds { 'invoices.issue': { invoiceUuid: string } } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobKinds {}

export type JobKind = keyof JobKinds & string;

/** What a handler gets: the job's id, its payload and which attempt this is (1 for the first). */
export interface Job<K extends JobKind = JobKind> {
  id: string;
  kind: K;
  payload: JobKinds[K];
  attempt: number;
  /** The app's logger. */
  log: RunnerLog;
}

export interface RunnerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobDefinition<K extends JobKind> {
  /**
   * Does the work. It must be idempotent: a job runs at least once, and again when an instance stopped before
   * recording the outcome. Throwing fails the attempt; it is retried with backoff until maxAttempts.
   */
  handler: (job: Job<K>) => Promise<void>;
  /** Attempts before the job is kept as failed (default 5). */
  maxAttempts?: number;
  /** A recurring job: runs every this many milliseconds, exactly one pending occurrence across all instances. */
  every?: number;
  /** How long a claim lasts (milliseconds, default 5 minutes): a job still running after it is taken again. */
  leaseMs?: number;
}

export interface EnqueueOptions {
  /** Inside the caller's transaction: the job exists only if that transaction commits. */
  tx?: Queryable;
  /** Not before this time (default now). */
  runAt?: Date;
  /** At most one pending or running job with this key; a second enqueue with it is ignored. */
  uniqueKey?: string;
}

export interface RunnerOptions {
  /** Jobs running at once in this instance (default 4). */
  concurrency: number;
  /** How often an idle instance looks for due jobs (default 1 s); enqueuing here wakes it at once. */
  pollMs: number;
  /** Wait before the first retry (default 10 s); each further retry doubles it, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long stop() lets running jobs finish before handing them back to the queue (default 10 s). */
  stopTimeoutMs: number;
  /** Errors of failed attempts and of the runner itself (the app's logger). */
  log: RunnerLog;
  /**
   * At most this many jobs of a kind at once in this instance (KIND_LIMITS by default). The kinds named here
   * together never take more than `concurrency - 1` slots: one is always left for the kinds without a limit.
   */
  kindLimits: Readonly<Partial<Record<string, number>>>;
}

/**
 * Bulk work queued in thousands at once, and how much of it runs at once per instance (decision 251). Unlimited, an
 * announcement's batches (decision 244) and then its 10,000 owners' mails took all four slots, and with them four
 * of the database pool's connections and most of the database's CPU, for as long as they lasted: the API's p99 went
 * up fourfold meanwhile. Limited, they take at most three slots together (see `kindLimits`), one batch writes at a
 * time, and mails go out one after the other: the inboxes fill a little later, the mails at their own pace, and the
 * API keeps its share. A kind not named here runs as the runner's concurrency allows.
 */
export const KIND_LIMITS: Readonly<Partial<Record<JobKind, number>>> = {
  'announcements.fanout-batch': 1,
  'announcements.fanout-done': 1,
  'announcements.withdraw': 1,
  'notifications.mail': 1,
  'mail.send': 1,
};

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: 4,
  pollMs: 1000,
  backoffMs: 10_000,
  maxBackoffMs: 60 * 60 * 1000,
  stopTimeoutMs: 10_000,
  log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  kindLimits: KIND_LIMITS,
};

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_LEASE_MS = 5 * 60 * 1000;

interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  unique_key: string | null;
}

/** The key holding a recurring kind's one pending occurrence. */
const recurringKey = (kind: string) => `recurring:${kind}`;

const errorText = (error: unknown) =>
  (error instanceof Error ? error.stack || error.message : String(error)).slice(0, 4000);

/** Queue depth per kind and state, for /metrics. */
export interface JobCounts {
  kind: string;
  state: 'pending' | 'running' | 'failed';
  count: number;
}

/**
 * The one runner for scheduled and queued work. Jobs live in the `jobs` table; an instance claims a due job with
 * `FOR UPDATE SKIP LOCKED`, so several instances on one database never run the same job at once, and a claim is
 * a lease: a job whose instance died is taken again once the lease ran out.
 */
export class JobRunner {
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private readonly options: RunnerOptions;
  private readonly instance = randomUUID();
  private readonly running = new Map<string, Promise<void>>();
  /** Jobs running here per kind with a limit (kindLimits), and of all those kinds together. */
  private readonly limitedRunning = new Map<string, number>();
  private limitedTotal = 0;
  private readonly claiming = new Set<Promise<boolean>>();
  /** Claims one after the other, so that a limit is checked against every claim before it. */
  private claimQueue: Promise<unknown> = Promise.resolve();
  private started = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private looping: Promise<void> | undefined;
  private wakeAgain = false;
  /** Failed attempts in this instance, by kind (a counter for /metrics). */
  readonly attemptFailures = new Map<string, number>();

  constructor(
    private readonly db: Db,
    options: Partial<RunnerOptions> = {},
  ) {
    this.options = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  }

  /** Registers the handler of a kind; each kind once. */
  define<K extends JobKind>(kind: K, definition: JobDefinition<K>): void {
    if (this.definitions.has(kind)) throw new Error(`job kind ${kind} is defined twice`);
    this.definitions.set(kind, definition as unknown as JobDefinition<never>);
    if (this.started && definition.every) {
      this.scheduleRecurring(kind, new Date()).catch((error: unknown) =>
        this.options.log.error({ err: error, kind }, 'recurring job not scheduled'),
      );
    }
  }

  /** Queues a job of a defined kind; returns its id, or null when a job with the same uniqueKey is open. */
  async enqueue<K extends JobKind>(
    kind: K,
    payload: JobKinds[K],
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`job kind ${kind} is not defined`);
    const { rows } = await (options.tx ?? this.db).query<{ id: string }>(
      `insert into jobs (kind, payload, unique_key, run_at, max_attempts)
       values ($1, $2::jsonb, $3, coalesce($4::timestamptz, now()), $5)
       on conflict (unique_key) where state in ('pending', 'running') do nothing
       returning id`,
      [
        kind,
        JSON.stringify(payload ?? {}),
        options.uniqueKey ?? null,
        options.runAt?.toISOString() ?? null,
        definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      ],
    );
    // A job in the caller's transaction becomes visible at its commit: the wake may come too early, and the next
    // poll takes it then.
    if (rows[0]) queueMicrotask(() => this.wake());
    return rows[0]?.id ?? null;
  }

  /**
   * Queues many jobs of one kind in one statement (a batch's mails, say), due now; a job whose uniqueKey is open
   * already is skipped. Returns how many were queued.
   */
  async enqueueMany<K extends JobKind>(
    kind: K,
    jobs: readonly { payload: JobKinds[K]; uniqueKey?: string }[],
    options: Pick<EnqueueOptions, 'tx'> = {},
  ): Promise<number> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`job kind ${kind} is not defined`);
    if (jobs.length === 0) return 0;
    const { rows } = await (options.tx ?? this.db).query(
      `insert into jobs (kind, payload, unique_key, max_attempts)
       select $1, job.payload, job.unique_key, $3 from jsonb_to_recordset($2::jsonb) as job (payload jsonb, unique_key text)
       on conflict (unique_key) where state in ('pending', 'running') do nothing
       returning id`,
      [
        kind,
        JSON.stringify(
          jobs.map((job) => ({ payload: job.payload ?? {}, unique_key: job.uniqueKey ?? null })),
        ),
        definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      ],
    );
    if (rows.length) queueMicrotask(() => this.wake());
    return rows.length;
  }

  /**
   * How many jobs of `kind` whose uniqueKey starts with `keyPrefix` are still open (pending or running) and how
   * many failed for good: the jobs of one piece of work queued at once (an announcement's batches). A job that
   * succeeded is gone; one whose handler returned may still count as running for a moment.
   */
  async outstanding(kind: JobKind, keyPrefix: string): Promise<{ open: number; failed: number }> {
    const { rows } = await this.db.query<{ open: number; failed: number }>(
      `select count(*) filter (where state in ('pending', 'running'))::int as open,
              count(*) filter (where state = 'failed')::int as failed
         from jobs where kind = $1 and starts_with(unique_key, $2)`,
      [kind, keyPrefix],
    );
    return rows[0]!;
  }

  /** Starts polling; recurring kinds get their first occurrence (now) unless one is pending already. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    const now = new Date();
    for (const [kind, definition] of this.definitions) {
      if (definition.every) await this.scheduleRecurring(kind, now);
    }
    this.wake();
  }

  /**
   * Stops claiming jobs; running jobs may finish within stopTimeoutMs, and those still running then go back to the
   * queue (their attempt not counted) for another instance or the next start.
   */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.looping;
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>(
      (resolve) => (timeout = setTimeout(resolve, this.options.stopTimeoutMs)),
    );
    await Promise.race([Promise.allSettled([...this.running.values()]), timedOut]);
    clearTimeout(timeout);
    const unfinished = [...this.running.keys()];
    if (unfinished.length) {
      await this.db.query(
        `update jobs set state = 'pending', attempts = greatest(0, attempts - 1), locked_by = null,
           locked_until = null, updated_at = now()
         where id = any($1::bigint[]) and state = 'running' and locked_by = $2`,
        [unfinished, this.instance],
      );
    }
    this.started = false;
  }

  /**
   * Runs due jobs in this instance until none is due and none is running here (tests: wait for the queue to
   * empty instead of sleeping). Works whether or not the runner was started.
   */
  async drain(): Promise<void> {
    for (;;) {
      while (this.running.size < this.options.concurrency && (await this.claimAndRun())) {
        // claimed one; look for the next
      }
      if (this.claiming.size) {
        // The poller of this instance is claiming right now: the job it gets runs here, so wait for it too.
        await Promise.allSettled([...this.claiming]);
      } else if (this.running.size) {
        await Promise.race(this.running.values());
      } else if (!(await this.claimAndRun()) && !this.claiming.size && !this.running.size) {
        return;
      }
    }
  }

  /** Open and failed jobs per kind, across all instances. */
  async counts(): Promise<JobCounts[]> {
    const { rows } = await this.db.query<{ kind: string; state: JobCounts['state']; count: number }>(
      'select kind, state, count(*)::int as count from jobs group by kind, state order by kind, state',
    );
    return rows;
  }

  /** Looks for work now (after an enqueue here), instead of at the next poll. */
  private wake(): void {
    if (!this.started || this.stopping) return;
    if (this.looping) {
      this.wakeAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.looping = this.loop().finally(() => {
      this.looping = undefined;
      if (this.stopping) return;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.options.pollMs);
        this.timer.unref();
      }
    });
  }

  private async loop(): Promise<void> {
    try {
      while (!this.stopping && this.running.size < this.options.concurrency) {
        if (!(await this.claimAndRun())) return;
      }
    } catch (error) {
      this.options.log.error({ err: error }, 'job runner could not claim a job');
    }
  }

  /** Claims the next due job and starts it; tracked while the claim is under way (see drain). */
  private claimAndRun(): Promise<boolean> {
    const claim = this.claimQueue.then(() => this.claimNext());
    this.claimQueue = claim.catch(() => undefined);
    this.claiming.add(claim);
    const done = () => this.claiming.delete(claim);
    claim.then(done, done);
    return claim;
  }

  /**
   * The kinds this instance may take now: all but those at their limit, and none with a limit once the limited
   * kinds together hold all their slots.
   */
  private claimableKinds(): string[] {
    const limits = this.options.kindLimits;
    const limitedSlots = Math.max(1, this.options.concurrency - 1);
    return [...this.definitions.keys()].filter((kind) => {
      const limit = limits[kind];
      if (limit === undefined) return true;
      return this.limitedTotal < limitedSlots && (this.limitedRunning.get(kind) ?? 0) < limit;
    });
  }

  private async claimNext(): Promise<boolean> {
    if (this.running.size >= this.options.concurrency) return false;
    const kinds = this.claimableKinds();
    if (!kinds.length) return false;
    const leases = kinds.map((kind) => (this.definitions.get(kind)!.leaseMs ?? DEFAULT_LEASE_MS) / 1000);
    const { rows } = await this.db.query<JobRow>(
      `update jobs set state = 'running', attempts = attempts + 1, locked_by = $2, updated_at = now(),
         locked_until = now() + make_interval(secs =>
           (select lease from unnest($1::text[], $3::float8[]) as k(kind, lease) where k.kind = jobs.kind))
       where id = (
         select id from jobs
         where kind = any($1::text[])
           and ((state = 'pending' and run_at <= now()) or (state = 'running' and locked_until < now()))
         order by run_at, id limit 1
         for update skip locked)
       returning id, kind, payload, attempts, max_attempts, unique_key`,
      [kinds, this.instance, leases],
    );
    const row = rows[0];
    if (!row) return false;
    const definition = this.definitions.get(row.kind)!;
    const id = String(row.id);
    const limited = this.options.kindLimits[row.kind] !== undefined;
    if (limited) this.countLimited(row.kind, 1);
    const run = this.run(definition, { ...row, id }).finally(() => {
      this.running.delete(id);
      if (limited) this.countLimited(row.kind, -1);
      this.wake();
    });
    this.running.set(id, run);
    return true;
  }

  private countLimited(kind: string, by: 1 | -1): void {
    this.limitedRunning.set(kind, (this.limitedRunning.get(kind) ?? 0) + by);
    this.limitedTotal += by;
  }

  private async run(definition: JobDefinition<never>, row: JobRow): Promise<void> {
    const job = {
      id: row.id,
      kind: row.kind,
      payload: row.payload,
      attempt: row.attempts,
      log: this.options.log,
    } as Job<never>;
    let failure: unknown;
    let failed = false;
    try {
      await definition.handler(job);
    } catch (error) {
      failed = true;
      failure = error;
    }
    try {
      if (!failed) await this.succeeded(definition, row);
      else await this.failed(definition, row, failure);
    } catch (error) {
      // The lease runs out and another attempt follows; the handler is idempotent.
      this.options.log.error({ err: error, job: row.id, kind: row.kind }, 'job outcome not recorded');
    }
  }

  private async succeeded(definition: JobDefinition<never>, row: JobRow): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `delete from jobs where id = $1 and state = 'running' and locked_by = $2`,
        [row.id, this.instance],
      );
      if (rowCount && definition.every) await this.insertNextOccurrence(tx, row.kind, definition.every);
    });
  }

  private async failed(definition: JobDefinition<never>, row: JobRow, error: unknown): Promise<void> {
    this.attemptFailures.set(row.kind, (this.attemptFailures.get(row.kind) ?? 0) + 1);
    const final = row.attempts >= row.max_attempts;
    this.options.log.warn(
      { err: error, job: row.id, kind: row.kind, attempt: row.attempts, final },
      final ? 'job failed for good' : 'job attempt failed, retrying',
    );
    const delayMs = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (row.attempts - 1));
    await this.db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `update jobs set state = $3, last_error = $4, locked_by = null, locked_until = null, updated_at = now(),
           run_at = case when $3 = 'pending' then now() + make_interval(secs => $5::float8) else run_at end
         where id = $1 and state = 'running' and locked_by = $2`,
        [row.id, this.instance, final ? 'failed' : 'pending', errorText(error), delayMs / 1000],
      );
      // A recurring job out of attempts is kept as failed; the schedule goes on.
      if (rowCount && final && definition.every)
        await this.insertNextOccurrence(tx, row.kind, definition.every);
    });
  }

  private async insertNextOccurrence(tx: Queryable, kind: string, every: number): Promise<void> {
    await tx.query(
      `insert into jobs (kind, unique_key, run_at, max_attempts)
       values ($1, $2, now() + make_interval(secs => $3::float8), $4)
       on conflict (unique_key) where state in ('pending', 'running') do nothing`,
      [
        kind,
        recurringKey(kind),
        every / 1000,
        this.definitions.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      ],
    );
  }

  private async scheduleRecurring(kind: string, at: Date): Promise<void> {
    await this.db.query(
      `insert into jobs (kind, unique_key, run_at, max_attempts) values ($1, $2, $3, $4)
       on conflict (unique_key) where state in ('pending', 'running') do nothing`,
      [
        kind,
        recurringKey(kind),
        at.toISOString(),
        this.definitions.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      ],
    );
  }
}
