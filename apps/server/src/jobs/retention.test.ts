import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { describeApi, type TestApi } from '../test/api.ts';
import { RETENTION_DEFAULTS } from '../config/retention.ts';
import { applyRetention } from './retention.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const EMPLOYEE = DEMO_USERS.employee.id;

const count = async (api: TestApi, sql: string, params: unknown[] = []) =>
  Number((await api.db.query<{ n: string }>(`select count(*)::text as n from ${sql}`, params)).rows[0]!.n);

/** A user row, deleted `deletedDaysAgo` ago (null: not deleted); answers its uuid. */
async function person(api: TestApi, deletedDaysAgo: number | null): Promise<string> {
  const uuid = crypto.randomUUID();
  await api.db.query(
    `insert into users (uuid, subject, email, name, deleted_at)
     values ($1, $2, '', '', case when $3::int is null then null else now() - make_interval(days => $3::int) end)`,
    [uuid, `retention-${uuid}`, deletedDaysAgo],
  );
  return uuid;
}

describeApi(
  'retention',
  (api) => {
    it('removes exactly what is past each entry of the table, in small batches, and nothing else', async () => {
      const d = RETENTION_DEFAULTS;
      expect(api.config.retention).toEqual(d);
      // Time moves by dating rows back: for each entry some rows a day past it and one a day inside it.
      const aged = (days: number) => `now() - make_interval(days => ${days})`;
      await api.db.query(
        `insert into audit_log (account_uuid, action, target, created_at)
         select $1::uuid, 'old.entry', 'x', ${aged(d.auditLogDays + 1)} from generate_series(1, 3)
         union all select $1::uuid, 'young.entry', 'x', ${aged(d.auditLogDays - 1)}`,
        [MUSTER],
      );
      await api.db.query(
        `insert into idp_sign_ins (identity_id, outcome, method, created_at)
         values ($1, 'success', 'password', ${aged(d.signInsDays + 1)}),
                ($1, 'success', 'password', ${aged(d.signInsDays + 1)}),
                ($1, 'locked', 'password', ${aged(d.signInsDays - 1)})`,
        [EMPLOYEE],
      );
      await api.db.query(
        `insert into notifications (account_uuid, user_uuid, type, created_at)
         values ($1, $2, 'old', ${aged(d.notificationsDays + 1)}), ($1, $2, 'old', ${aged(d.notificationsDays + 1)}),
                ($1, $2, 'young', ${aged(d.notificationsDays - 1)})`,
        [MUSTER, EMPLOYEE],
      );
      await api.db.query(
        `insert into mail_outbox (recipient, subject, text_body, created_at)
         values ('old@example.com', 's', 't', ${aged(d.outboxDays + 1)}),
                ('old@example.com', 's', 't', ${aged(d.outboxDays + 1)}),
                ('young@example.com', 's', 't', ${aged(d.outboxDays - 1)})`,
      );
      await api.db.query(
        `insert into data_exports (uuid, user_uuid, state, requested_at)
         values (gen_random_uuid(), $1, 'ready', ${aged(d.exportsDays + 1)}),
                (gen_random_uuid(), $1, 'ready', ${aged(d.exportsDays - 1)})`,
        [EMPLOYEE],
      );
      // Deleted persons: one nothing points at goes; one the log names, one who accepted terms (a reference the
      // database would refuse to lose), one deleted recently and one not deleted stay.
      const gone = await person(api, d.deletedPersonsDays + 1);
      const actor = await person(api, d.deletedPersonsDays + 1);
      const accepted = await person(api, d.deletedPersonsDays + 1);
      const recent = await person(api, d.deletedPersonsDays - 1);
      const living = await person(api, null);
      await api.db.query(
        `insert into audit_log (account_uuid, actor_uuid, action, target) values ($1, $2, 'x', 'x')`,
        [MUSTER, actor],
      );
      await api.db.query(
        `insert into terms_acceptances (account_uuid, kind, version, accepted_by) values ($1, 'agb', 'retention', $2)`,
        [MUSTER, accepted],
      );
      await api.db.query(
        `insert into jobs (kind, state, max_attempts, last_error, updated_at)
         values ('old.failed', 'failed', 1, 'boom', ${aged(d.failedJobsDays + 1)}),
                ('old.failed', 'failed', 1, 'boom', ${aged(d.failedJobsDays + 1)}),
                ('young.failed', 'failed', 1, 'boom', ${aged(d.failedJobsDays - 1)}),
                ('old.pending', 'pending', 1, null, ${aged(400)})`,
      );

      let transactions = 0;
      const counting: Db = {
        ...api.db,
        transaction: (fn) => {
          transactions += 1;
          return api.db.transaction(fn);
        },
      };
      // Exactly the rows dated past their entry go: the demo data holds nothing older.
      expect(await applyRetention(counting, d, { batchSize: 2 })).toEqual({
        auditLogDays: 3,
        signInsDays: 2,
        notificationsDays: 2,
        outboxDays: 2,
        exportsDays: 1,
        deletedPersonsDays: 1,
        failedJobsDays: 2,
      });
      // Batches of 2, each its own transaction: 3 rows take 2, 2 rows take 2 (the second comes back short), 1 one.
      expect(transactions).toBe(2 + 2 + 2 + 2 + 1 + 1 + 2);
      expect(await count(api, `audit_log where action = 'young.entry'`)).toBe(1);
      expect(await count(api, `idp_sign_ins where identity_id = $1 and outcome = 'locked'`, [EMPLOYEE])).toBe(
        1,
      );
      expect(await count(api, `notifications where type in ('old', 'young')`)).toBe(1);
      expect(
        await count(api, `mail_outbox where recipient in ('old@example.com', 'young@example.com')`),
      ).toBe(1);
      expect(await count(api, `data_exports where user_uuid = $1`, [EMPLOYEE])).toBe(1);
      const users = await api.db.query<{ uuid: string }>(
        'select uuid from users where uuid = any ($1::uuid[])',
        [[gone, actor, accepted, recent, living]],
      );
      expect(users.rows.map((row) => row.uuid).sort()).toEqual([actor, accepted, recent, living].sort());
      const jobs = await api.db.query<{ kind: string }>(
        `select kind from jobs where kind like 'old.%' or kind like 'young.%' order by kind`,
      );
      expect(jobs.rows.map((row) => row.kind)).toEqual(['old.pending', 'young.failed']);
      // A second run finds nothing.
      expect(await applyRetention(api.db, d)).toEqual({});
    });

    it('runs as one hourly recurring job', async () => {
      await api.db.query(
        `insert into mail_outbox (recipient, subject, text_body, created_at)
         values ('job@example.com', 's', 't', now() - interval '40 days')`,
      );
      await api.app.jobs.drain();
      const due = await api.db.query(
        `update jobs set run_at = now() where kind = 'retention.purge' and state = 'pending'`,
      );
      expect(due.rowCount).toBe(1);
      await api.app.jobs.drain();
      expect(await count(api, `mail_outbox where recipient = 'job@example.com'`)).toBe(0);
      const { rows } = await api.db.query<{ in_minutes: number }>(
        `select round(extract(epoch from run_at - now()) / 60)::int as in_minutes from jobs
          where kind = 'retention.purge' and state = 'pending'`,
      );
      expect(rows).toEqual([{ in_minutes: 60 }]);
      // The purges it replaces are no recurring jobs of their own any more.
      expect(await count(api, `jobs where kind in ('audit.purge', 'jobs.purge-failed')`)).toBe(0);
    });
  },
  { embeddedIdp: true },
);
