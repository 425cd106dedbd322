// The demo data of every area, seeded in one transaction at a demo start (DEMO_DATA), by `npm run db:seed` and for
// the test database snapshot. Each area's rows are in its own file here; this one only orders them.
import { loadConfig, type BillingConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { seedDemoAbaclik } from './abaclik.ts';
import { seedDemoAnnouncements } from './announcements.ts';
import { seedDemoAccounts } from './accounts.ts';
import { seedDemoBilling } from './billing.ts';
import { seedDemoLessons } from './lessons.ts';
import { seedDemoLog } from './logs.ts';
import { seedDemoNotifications } from './notifications.ts';
import { seedDemoShop } from './peppershop.ts';
import { seedDemoTickets } from './support.ts';
import { DEMO_ACCOUNTS } from './users.ts';

/** Serialises seeding when several instances start at once. */
const SEED_LOCK = 727_002;

/**
 * Demo logins, accounts, memberships, history, subscriptions and invoices (issued with the billing settings given,
 * the product's defaults otherwise); running it again changes nothing.
 */
export async function seedDemoData(db: Db, billing: BillingConfig = loadConfig({}).billing): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const ids = await seedDemoAccounts(tx);
    await seedDemoLog(tx, ids);
    await seedDemoNotifications(tx, ids);
    await seedDemoTickets(tx, ids);
    await seedDemoBilling(db, tx, billing);
    await seedDemoAbaclik(tx, ids);
    await seedDemoLessons(tx, ids.get('owner')!, DEMO_ACCOUNTS.muster);
    await seedDemoShop(tx);
    await seedDemoAnnouncements(tx, ids);
  });
}
