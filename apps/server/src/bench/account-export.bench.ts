/**
 * The account data export at size, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): Muster AG gets 10,000 log entries, 200 invoices (copies of a seeded one: the paid ones are rendered
 * anew on download, like their download) and 500 MB of ticket attachments (250 files of 2 MiB of random bytes, in a
 * FILES_DIR folder under os.tmpdir(), removed afterwards; BENCH_EXPORT_MB for another size). Measures through the
 * real app: the job that gathers the export, then the download of the ZIP over a real socket (read as it comes,
 * counted, never kept), with the process's resident memory sampled meanwhile. The bench runs the server in its own
 * process, so the memory figures include the harness; what matters is the growth during the download (decision 240:
 * the archive is streamed, never held).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEMO_ACCOUNTS } from '../demo/users.ts';
import { TestApi } from '../test/api.ts';

const MEGABYTES = Number(process.env.BENCH_EXPORT_MB ?? 500);
const FILE_BYTES = 2 * 1024 * 1024;
const LOG_ENTRIES = 10_000;
const INVOICES = 200;
const MUSTER = DEMO_ACCOUNTS.muster;

export interface AccountExportFigures {
  logEntries: number;
  invoices: number;
  attachments: number;
  attachmentBytes: number;
  /** The job: from the request to the ready export. */
  prepareMs: number;
  /** The download: from the request to the last byte of the ZIP. */
  downloadMs: number;
  zipBytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The process's peak resident memory over its whole life (the generation included). */
  maxRssMb: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

export async function measureAccountExport(): Promise<AccountExportFigures> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-export-bench-'));
  const api = new TestApi('postgres');
  try {
    await api.start({ env: { FILES_DIR: dir } });
    const { db } = api;
    const { rows: owners } = await db.query<{ user_uuid: string }>(
      `select user_uuid from account_members where account_uuid = $1 and role = 'OWNER'`,
      [MUSTER],
    );
    const owner = owners[0]!.user_uuid;
    await db.query(
      `insert into audit_log (account_uuid, actor_uuid, action, target, after, client_address, user_agent, created_at)
       select $1::uuid, $2::uuid,
              (array['account.update', 'member.invite', 'company.update', 'billing.details.update'])[1 + g % 4],
              'account:' || $1::text, jsonb_build_object('n', g, 'note', 'Eintrag ' || g), '192.0.2.' || (g % 250),
              'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/134.0', now() - (g || ' seconds')::interval
         from generate_series(1, ${LOG_ENTRIES}) g`,
      [MUSTER, owner],
    );
    const { rows: seeded } = await db.query<{ n: string }>(
      'select count(*) as n from invoices where account_uuid = $1',
      [MUSTER],
    );
    const copies = INVOICES - Number(seeded[0]!.n);
    await db.query(
      `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
         due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor, paid_minor, reference,
         billed_to, source_key, paid_at)
       select gen_random_uuid(), i.account_uuid, '1903-' || lpad(g::text, 6, '0'), 1903, g, i.kind, i.reason,
              i.status, i.currency, i.issued_on, i.due_on, i.period_start, i.period_end, i.lines, i.totals,
              i.net_minor, i.vat_minor, i.total_minor, i.paid_minor, 'RF-EXPORT-' || g, i.billed_to,
              'bench:' || g, i.paid_at
         from (select * from invoices where account_uuid = $1 order by issued_on limit 1) i,
              generate_series(1, ${copies}) g`,
      [MUSTER],
    );

    // The attachments: written one by one into the folder (never all in memory), 5 per ticket.
    const count = Math.ceil((MEGABYTES * 1024 * 1024) / FILE_BYTES);
    let ticket = '';
    for (let index = 0; index < count; index++) {
      if (index % 5 === 0) {
        const { rows } = await db.query<{ uuid: string }>(
          `insert into support_tickets (account_uuid, created_by, category, severity, subject, status)
           values ($1, $2, 'TECHNICAL', 'NORMAL', $3, 'OPEN') returning uuid`,
          [MUSTER, owner, `Bench ${index / 5}`],
        );
        ticket = rows[0]!.uuid;
      }
      const uuid = crypto.randomUUID();
      await fs.writeFile(path.join(dir, uuid), crypto.randomBytes(FILE_BYTES));
      await db.query(
        `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, created_by)
         values ($1, $2, 'support-attachment', 'image/png', $3, 'bench', $4, $5)`,
        [uuid, MUSTER, FILE_BYTES, `scan-${index}.png`, owner],
      );
      const { rows } = await db.query<{ id: string }>(
        `insert into support_messages (ticket_uuid, author_uuid, author_kind, body)
         values ($1, $2, 'CUSTOMER', $3) returning id`,
        [ticket, owner, `Anhang ${index}`],
      );
      await db.query(
        'insert into support_attachments (file_uuid, message_id, ticket_uuid) values ($1, $2, $3)',
        [uuid, rows[0]!.id, ticket],
      );
    }
    await db.query('vacuum analyze');

    const base = `/api/accounts/${MUSTER}/company/v1/data-export`;
    let started = performance.now();
    const asked = await api.request('POST', base, { as: 'owner', body: {} });
    if (asked.statusCode !== 202) throw new Error(`export refused: ${asked.statusCode} ${asked.body}`);
    await api.app.jobs.drain();
    const prepareMs = performance.now() - started;
    const status = (await api.request('GET', base, { as: 'owner' })).json().data;
    if (status.latest?.state !== 'ready') throw new Error(`export not ready: ${JSON.stringify(status)}`);

    // The download over a real socket, read as it comes.
    const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 25);
    started = performance.now();
    const response = await fetch(`${address}${base}/${status.latest.uuid}/file`, {
      headers: { authorization: `Bearer ${await api.token('owner')}` },
    });
    if (response.status !== 200 || !response.body) throw new Error(`download: ${response.status}`);
    let zipBytes = 0;
    let tail = new Uint8Array(0);
    for await (const chunk of response.body) {
      zipBytes += chunk.length;
      tail = chunk.length >= 22 ? chunk.slice(-22) : tail;
    }
    const downloadMs = performance.now() - started;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    // The archive ends with its end-of-central-directory record (PK\5\6).
    if (!(tail[0] === 0x50 && tail[1] === 0x4b && tail[2] === 5 && tail[3] === 6)) {
      throw new Error('the ZIP did not end with its central directory');
    }
    return {
      logEntries: LOG_ENTRIES,
      invoices: INVOICES,
      attachments: count,
      attachmentBytes: count * FILE_BYTES,
      prepareMs,
      downloadMs,
      zipBytes,
      rssBeforeMb: mb(rssBefore),
      rssPeakMb: mb(rssPeak),
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await api.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export function printAccountExportFigures(figures: AccountExportFigures): void {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `  account data export on PostgreSQL: ${figures.logEntries.toLocaleString('en')} log entries, ` +
      `${figures.invoices} invoices, ${figures.attachments} attachments of ${mb(figures.attachmentBytes).toFixed(0)} MB:`,
  );
  console.log(`    prepare (job)          ${seconds(figures.prepareMs)}`);
  console.log(
    `    download (ZIP, ${mb(figures.zipBytes).toFixed(0)} MB) ${seconds(figures.downloadMs)} ` +
      `(${(mb(figures.zipBytes) / (figures.downloadMs / 1000)).toFixed(0)} MB/s)`,
  );
  console.log(
    `    resident memory        ${figures.rssBeforeMb.toFixed(0)} MB before, peak ${figures.rssPeakMb.toFixed(0)} MB ` +
      `during the download (+${(figures.rssPeakMb - figures.rssBeforeMb).toFixed(0)} MB); ` +
      `process peak ${figures.maxRssMb.toFixed(0)} MB`,
  );
}
