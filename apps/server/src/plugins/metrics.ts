import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../config.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { LiveHub } from '../notifications/live.ts';
import { plainNotFound } from '../http/errors.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: string;
  count: number;
  sum: number;
  buckets: number[];
}

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read /metrics: a client on this machine (the address follows TRUST_PROXY), or anyone presenting the
 * configured bearer token. The token is compared in constant time (as hashes, so the length does not leak either).
 */
export function metricsReader(token: string | null) {
  const expected = token ? digest(token) : null;
  return (request: FastifyRequest): boolean => {
    if (isLoopbackHost(request.ip)) return true;
    const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return !!expected && !!match && timingSafeEqual(digest(match[1]!), expected);
  };
}

/**
 * Prometheus text metrics of this instance at /metrics: requests by route and status, request durations,
 * process uptime and memory, for loopback clients and holders of METRICS_TOKEN. Labels use the route pattern, never the raw URL, so the series stay bounded.
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { token: string | null; jobs?: JobRunner; live?: LiveHub },
) {
  const mayRead = metricsReader(options.token);
  const requests = new Map<string, number>();
  const durations = new Map<string, Series>();

  // The labels of a method and route pattern, escaped once (decision 254).
  const labelsOf = new Map<string, string>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seen = `${request.method} ${route}`;
    let base = labelsOf.get(seen);
    if (base === undefined) {
      base = `method="${escapeLabel(request.method)}",route="${escapeLabel(route)}"`;
      labelsOf.set(seen, base);
    }
    const key = `${base},status="${reply.statusCode}"`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const seconds = reply.elapsedTime / 1000;
    let series = durations.get(base);
    if (!series)
      durations.set(base, (series = { labels: base, count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }));
    series.count += 1;
    series.sum += seconds;
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) series.buckets[i]! += 1;
    });
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // Refused readers learn nothing, not even that the endpoint exists.
    if (!mayRead(request)) return plainNotFound(reply);
    const lines: string[] = [
      '# HELP portal_http_requests_total HTTP requests answered, by route pattern and status.',
      '# TYPE portal_http_requests_total counter',
    ];
    for (const [labels, count] of requests) lines.push(`portal_http_requests_total{${labels}} ${count}`);
    lines.push(
      '# HELP portal_http_request_duration_seconds Time to answer HTTP requests.',
      '# TYPE portal_http_request_duration_seconds histogram',
    );
    for (const series of durations.values()) {
      BUCKETS.forEach((le, i) =>
        lines.push(
          `portal_http_request_duration_seconds_bucket{${series.labels},le="${le}"} ${series.buckets[i]}`,
        ),
      );
      lines.push(
        `portal_http_request_duration_seconds_bucket{${series.labels},le="+Inf"} ${series.count}`,
        `portal_http_request_duration_seconds_sum{${series.labels}} ${series.sum}`,
        `portal_http_request_duration_seconds_count{${series.labels}} ${series.count}`,
      );
    }
    if (options.jobs) lines.push(...(await jobLines(options.jobs)));
    if (options.live) {
      lines.push(
        '# HELP portal_live_streams Live notification streams open on this instance.',
        '# TYPE portal_live_streams gauge',
        `portal_live_streams ${options.live.size}`,
        '# HELP portal_live_listening 1 while this instance listens for notification signals, else 0.',
        '# TYPE portal_live_listening gauge',
        `portal_live_listening ${options.live.listening ? 1 : 0}`,
      );
    }
    const memory = process.memoryUsage();
    lines.push(
      '# HELP process_uptime_seconds Seconds since the process started.',
      '# TYPE process_uptime_seconds gauge',
      `process_uptime_seconds ${process.uptime()}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use, in bytes.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${memory.heapUsed}`,
    );
    reply.header('Cache-Control', 'no-store').type('text/plain; version=0.0.4; charset=utf-8');
    return lines.join('\n') + '\n';
  });
}

/** The jobs queue of all instances (open and failed jobs by kind) and this instance's failed attempts. */
async function jobLines(jobs: JobRunner): Promise<string[]> {
  const counts = await jobs.counts();
  const lines = [
    '# HELP portal_jobs Jobs in the queue of all instances, by kind and state (pending, running, failed).',
    '# TYPE portal_jobs gauge',
    ...counts.map(
      ({ kind, state, count }) => `portal_jobs{kind="${escapeLabel(kind)}",state="${state}"} ${count}`,
    ),
    '# HELP portal_job_attempt_failures_total Failed job attempts in this instance, by kind.',
    '# TYPE portal_job_attempt_failures_total counter',
  ];
  for (const [kind, count] of jobs.attemptFailures) {
    lines.push(`portal_job_attempt_failures_total{kind="${escapeLabel(kind)}"} ${count}`);
  }
  return lines;
}
