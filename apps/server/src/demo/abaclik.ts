import crypto from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { DEMO_ACCOUNTS, type DemoLogin } from './users.ts';

// [uuid suffix, member, device name, platform, app version, days since pairing, minutes since last seen]
const DEVICES: [string, DemoLogin, string, string, string, number, number][] = [
  ['01', 'owner', 'iPhone 15 Pro von Olivia', 'IOS', '3.4.1', 120, 12],
  ['02', 'admin', 'Pixel 8', 'ANDROID', '3.4.0', 45, 95],
  ['03', 'employee', 'Galaxy A54', 'ANDROID', '3.3.2', 20, 1_440 * 2],
  ['04', 'employee', 'iPad Werkstatt', 'IOS', '3.4.1', 3, 30],
];

const deviceUuid = (suffix: string) => `6f1c2b1e-0020-4000-8000-0000000000${suffix}`;

/**
 * Paired AbaClik phones of Muster AG's members, seen recently, so the devices page looks alive: fixed uuids, tokens
 * nobody holds (random hashes), and "last seen" renewed at each start (renewDemoAbaclik).
 */
export async function seedDemoAbaclik(tx: Queryable, ids: Map<DemoLogin, string>) {
  for (const [suffix, login, name, platform, version, days, minutes] of DEVICES) {
    await tx.query(
      `insert into abaclik_devices (uuid, account_uuid, user_uuid, name, platform, app_version, token_hash,
                                    paired_at, last_seen_at)
       values ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(days => $8::int),
               now() - make_interval(mins => $9::int))
       on conflict (uuid) do update set last_seen_at = excluded.last_seen_at`,
      [
        deviceUuid(suffix),
        DEMO_ACCOUNTS.muster,
        ids.get(login)!,
        name,
        platform,
        version,
        crypto.randomBytes(32).toString('hex'),
        days,
        minutes,
      ],
    );
  }
}

/** A demo start that does not seed (decision 253) still renews the demo devices' "last seen" that are left. */
export async function renewDemoAbaclik(tx: Queryable) {
  await tx.query(
    `update abaclik_devices d set last_seen_at = now() - make_interval(mins => r.minutes)
       from unnest($1::uuid[], $2::int[]) as r(uuid, minutes)
      where d.uuid = r.uuid`,
    [DEVICES.map(([suffix]) => deviceUuid(suffix)), DEVICES.map((device) => device[6])],
  );
}
