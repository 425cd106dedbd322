// The demo data of every area, seeded in one transaction at a demo start (DEMO_DATA) whose version is not the stored
// one (decision 253), by `npm run db:seed` and for the test database snapshot. Each area's rows are in its own file
// here; this one only orders them.
import { loadConfig, type BillingConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { renewDemoAbaclik, seedDemoAbaclik } from './abaclik.ts';
import { renewDemoAnnouncements, seedDemoAnnouncements } from './announcements.ts';
import { seedDemoAccounts } from './accounts.ts';
import { seedDemoBilling } from './billing.ts';
import { seedDemoLessons } from './lessons.ts';
import { seedDemoLog } from './logs.ts';
import { seedDemoNotifications } from './notifications.ts';
import { seedDemoShop } from './peppershop.ts';
import { seedDemoTickets } from './support.ts';
import { DEMO_ACCOUNTS } from './users.ts';
import { demoDataVersion } from './version.ts';

/** Serialises seeding when several instances start at once. */
const SEED_LOCK = 727_002;

/**
 * Demo logins, accounts, memberships, history, subscriptions and invoices (issued with the billing settings given,
 * the product's defaults otherwise); running it again changes nothing. Stores the demo data's version; resolves to
 * whether it seeded.
 */
export async function seedDemoData(
  db: Db,
  billing: BillingConfig = loadConfig({}).billing,
  options: {
    /**
     * A demo start's seed (decision 253): skipped when the database holds this tree's demo data version already, so
     * a restart leaves the demo data as its users left it and only renews what keeps the demo current (the devices'
     * "last seen", the maintenance window). Without it the seed always runs (`npm run db:seed`, the test snapshot).
     */
    unlessCurrent?: boolean;
  } = {},
): Promise<boolean> {
  const version = demoDataVersion(billing);
  return db.transaction(async (tx) => {
    // Instances starting at once seed one after the other: the second finds the first one's version.
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    if (options.unlessCurrent && version) {
      const stored = await tx.query<{ version: string }>('select version from demo_data_version');
      if (stored.rows[0]?.version === version) {
        await renewDemoAbaclik(tx);
        await renewDemoAnnouncements(tx);
        return false;
      }
    }
    const ids = await seedDemoAccounts(tx);
    await seedDemoLog(tx, ids);
    await seedDemoNotifications(tx, ids);
    await seedDemoTickets(tx, ids);
    await seedDemoBilling(db, tx, billing);
    await seedDemoAbaclik(tx, ids);
    await seedDemoLessons(tx, ids.get('owner')!, DEMO_ACCOUNTS.muster);
    await seedDemoShop(tx);
    await seedDemoAnnouncements(tx, ids);
    if (version) {
      await tx.query(
        `insert into demo_data_version (version) values ($1)
         on conflict (singleton) do update set version = excluded.version, seeded_at = now()`,
        [version],
      );
    }
    return true;
  });
}
