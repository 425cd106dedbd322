import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { freshDatabase } from '../test/api.ts';
import { DEMO_ANNOUNCEMENTS } from './announcements.ts';
import { seedDemoData } from './seed.ts';
import { demoDataVersion } from './version.ts';

const billing = loadConfig({}).billing;
/** One of the demo devices (demo/abaclik.ts): a row the seed puts back when it runs. */
const DEVICE = '6f1c2b1e-0020-4000-8000-000000000004';

for (const backend of ['pglite', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !process.env.TEST_DATABASE_URL)(
    `the demo seed of a demo start (decision 253) [${backend}]`,
    () => {
      let db: Db;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        ({ db, drop } = await freshDatabase(backend));
      }, 60_000);
      afterAll(() => drop?.());

      const hasDevice = async () =>
        (await db.query('select 1 from abaclik_devices where uuid = $1', [DEVICE])).rows.length === 1;
      const storedVersion = async () =>
        (await db.query<{ version: string }>('select version from demo_data_version')).rows[0]?.version;

      it('with the stored version seeds nothing again, and renews the devices and the maintenance window', async () => {
        // The test database was seeded by this tree with the default billing settings.
        expect(demoDataVersion(billing)).toMatch(/^[0-9a-f]{32}$/);
        expect(await storedVersion()).toBe(demoDataVersion(billing));
        await db.query('delete from abaclik_devices where uuid = $1', [DEVICE]);
        await db.query(`update abaclik_devices set last_seen_at = now() - interval '30 days'`);
        await db.query(
          `update announcements set starts_at = now() - interval '10 days', ends_at = now() - interval '5 days'
            where uuid = $1`,
          [DEMO_ANNOUNCEMENTS.maintenance],
        );

        expect(await seedDemoData(db, billing, { unlessCurrent: true })).toBe(false);

        expect(await hasDevice()).toBe(false);
        const stale = await db.query(
          `select uuid from abaclik_devices where last_seen_at < now() - interval '3 days'`,
        );
        expect(stale.rows).toEqual([]);
        const open = await db.query(
          'select uuid from announcements where uuid = $1 and starts_at < now() and ends_at > now()',
          [DEMO_ANNOUNCEMENTS.maintenance],
        );
        expect(open.rows).toHaveLength(1);
      });

      it('seeds when the version is another or none (a first start), and always without unlessCurrent', async () => {
        await db.query(`update demo_data_version set version = 'an older tree'`);
        expect(await seedDemoData(db, billing, { unlessCurrent: true })).toBe(true);
        expect(await hasDevice()).toBe(true);
        expect(await storedVersion()).toBe(demoDataVersion(billing));

        await db.query('delete from demo_data_version');
        await db.query('delete from abaclik_devices where uuid = $1', [DEVICE]);
        expect(await seedDemoData(db, billing, { unlessCurrent: true })).toBe(true);
        expect(await hasDevice()).toBe(true);
        expect(await storedVersion()).toBe(demoDataVersion(billing));

        // `npm run db:seed` puts back what is missing whatever the version.
        await db.query('delete from abaclik_devices where uuid = $1', [DEVICE]);
        expect(await seedDemoData(db, billing)).toBe(true);
        expect(await hasDevice()).toBe(true);
      });

      it('is another version with other billing settings', () => {
        const other = loadConfig({ BILLING_REMINDER_DAYS: '5,20' }).billing;
        expect(demoDataVersion(other)).not.toBe(demoDataVersion(billing));
      });
    },
  );
}
