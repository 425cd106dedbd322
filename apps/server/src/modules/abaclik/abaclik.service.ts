import crypto from 'node:crypto';
import {
  ABACLIK_CODE_ALPHABET,
  ABACLIK_CODE_LENGTH,
  ABACLIK_CODE_VALID_MINUTES,
  ABACLIK_PAIRING_URI,
  formatActivationCode,
  mayManageAllAbaclikDevices,
  normalizeActivationCode,
  type AbaclikActivationCode,
  type AbaclikCodeStatus,
  type AbaclikDevice,
  type AbaclikDevicesQuery,
  type AbaclikHeartbeat,
  type AbaclikHeartbeatBody,
  type AbaclikPairBody,
  type AbaclikPairing,
  type AbaclikPlatform,
} from '@portal/contract';
import type { Actor } from '../../audit/audit.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { AbaclikConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import { forbidden, HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { iso } from '../../db/iso.ts';
import { checkLimit, countHit } from '../../limits/limits.ts';

/** Codes and device tokens are kept as their SHA-256 hash only. */
const hash = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** A new activation code: ABACLIK_CODE_LENGTH characters drawn uniformly from the unambiguous alphabet. */
export function newActivationCode(): string {
  let code = '';
  for (let i = 0; i < ABACLIK_CODE_LENGTH; i += 1) {
    code += ABACLIK_CODE_ALPHABET[crypto.randomInt(ABACLIK_CODE_ALPHABET.length)];
  }
  return code;
}

/** A device token: 256 random bits, with a prefix that tells secret scanners what it is. */
const newDeviceToken = () => `abaclik_${crypto.randomBytes(32).toString('base64url')}`;

interface DeviceRow {
  uuid: string;
  name: string;
  platform: AbaclikPlatform;
  app_version: string;
  paired_at: Date;
  last_seen_at: Date;
  user_uuid: string;
  user_name: string;
  user_email: string;
}

const DEVICE_COLUMNS = `d.uuid, d.name, d.platform, d.app_version, d.paired_at, d.last_seen_at,
       u.uuid as user_uuid, u.name as user_name, u.email as user_email`;

/**
 * Devices of account $1 whose person is still a member: a person who left the account takes their devices out of
 * it (their heartbeat is refused as well).
 */
const DEVICES_OF_ACCOUNT = `
  from abaclik_devices d
  join users u on u.uuid = d.user_uuid
  join account_members m on m.account_uuid = d.account_uuid and m.user_uuid = d.user_uuid
                        and m.invitation_status = 'ACCEPTED'
 where d.account_uuid = $1`;

function toDevice(row: DeviceRow, user: PortalUser): AbaclikDevice {
  return {
    uuid: row.uuid,
    name: row.name,
    platform: row.platform,
    appVersion: row.app_version,
    person: { uuid: row.user_uuid, name: row.user_name, email: row.user_email },
    pairedAt: iso(row.paired_at),
    lastSeenAt: iso(row.last_seen_at),
    isOwn: row.user_uuid === user.uuid,
  };
}

/** The caller's own devices, or every device of the account (ADMIN and above only: 403 below), newest first. */
export async function listDevices(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  query: AbaclikDevicesQuery,
): Promise<ListPage<AbaclikDevice>> {
  const all = query.scope === 'all';
  if (all && !mayManageAllAbaclikDevices(access.role)) {
    throw forbidden('Only ADMIN and above see the devices of every member');
  }
  const p = sqlParams(access.accountUuid);
  const mine = all ? '' : ` and d.user_uuid = ${p.add(user.uuid)}`;
  return readPage(
    db,
    {
      rows: `select ${DEVICE_COLUMNS} ${DEVICES_OF_ACCOUNT}${mine} order by d.paired_at desc, d.uuid`,
      count: `select count(*) as total ${DEVICES_OF_ACCOUNT}${mine}`,
    },
    p,
    pageOf(query),
    (row: DeviceRow) => toDevice(row, user),
  );
}

async function findDevice(q: Queryable, accountUuid: string, uuid: string): Promise<DeviceRow | null> {
  const { rows } = await q.query<DeviceRow>(
    `select ${DEVICE_COLUMNS} ${DEVICES_OF_ACCOUNT} and d.uuid = $2`,
    [accountUuid, uuid],
  );
  return rows[0] ?? null;
}

/** What the audit log keeps of a device: never its token. */
const auditedDevice = (row: DeviceRow) => ({
  uuid: row.uuid,
  name: row.name,
  platform: row.platform,
  appVersion: row.app_version,
});

/**
 * Revokes a device: the person's own, or any of the account's for ADMIN and above. Someone else's device is not
 * visible to a member, so for them it does not exist (404, as an unknown one). The app's next call is refused.
 */
export async function revokeDevice(db: Db, user: PortalUser, access: AccountAccess, uuid: string) {
  await db.transaction(async (tx) => {
    const row = await findDevice(tx, access.accountUuid, uuid);
    if (!row || (row.user_uuid !== user.uuid && !mayManageAllAbaclikDevices(access.role))) throw notFound();
    await tx.query('delete from abaclik_devices where uuid = $1', [uuid]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'abaclik.device-revoked',
      target: `user:${row.user_uuid}`,
      before: auditedDevice(row),
    });
  });
}

/** The address the QR code carries: the app's pairing URI with this portal's address and the code. */
export function pairingUri(publicUrl: string, code: string): string {
  const query = new URLSearchParams({ server: publicUrl, code: formatActivationCode(code) });
  return `${ABACLIK_PAIRING_URI}?${query.toString()}`;
}

/**
 * A new activation code for the caller's own phone, replacing the caller's earlier one (used or not): valid
 * ABACLIK_CODE_VALID_MINUTES, kept hashed, shown only in this answer. Codes expired for a day are cleared on the
 * way.
 */
export async function createCode(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  publicUrl: string,
): Promise<AbaclikActivationCode> {
  for (;;) {
    const code = newActivationCode();
    const uuid = crypto.randomUUID();
    const created = await db.transaction(async (tx) => {
      await tx.query(
        `delete from abaclik_codes where user_uuid = $1 or expires_at < now() - interval '1 day'`,
        [user.uuid],
      );
      const { rows } = await tx.query<{ expires_at: Date }>(
        `insert into abaclik_codes (uuid, account_uuid, user_uuid, code_hash, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(mins => $5::int))
         on conflict (code_hash) do nothing
         returning expires_at`,
        [uuid, access.accountUuid, user.uuid, hash(code), ABACLIK_CODE_VALID_MINUTES],
      );
      return rows[0];
    });
    // Another person's open code with the same characters (about one in 10^12): draw again.
    if (!created) continue;
    const uri = pairingUri(publicUrl, code);
    return {
      uuid,
      code: formatActivationCode(code),
      expiresAt: iso(created.expires_at),
      pairingUri: uri,
      // qrcode loads with the first code drawn, not at the server's start (decision 253).
      qrSvg: await (
        await import('qrcode')
      ).default.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    };
  }
}

/** The caller's own code as the pairing dialog polls it: open, used (with the device it paired) or expired. */
export async function getCodeStatus(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
): Promise<AbaclikCodeStatus> {
  const { rows } = await db.query<{
    expires_at: Date;
    used_at: Date | null;
    device_uuid: string | null;
    expired: boolean;
  }>(
    `select expires_at, used_at, device_uuid, expires_at <= now() as expired
       from abaclik_codes where uuid = $1 and account_uuid = $2 and user_uuid = $3`,
    [uuid, access.accountUuid, user.uuid],
  );
  const row = rows[0];
  if (!row) throw notFound();
  const device = row.device_uuid ? await findDevice(db, access.accountUuid, row.device_uuid) : null;
  return {
    uuid,
    status: row.used_at ? 'USED' : row.expired ? 'EXPIRED' : 'OPEN',
    expiresAt: iso(row.expires_at),
    device: device ? toDevice(device, user) : null,
  };
}

/** One answer for an unknown, expired and used code alike, so a guess learns nothing about which it was. */
const invalidCode = () =>
  new HttpError(401, 'INVALID_CODE', 'The activation code is not valid; ask the portal for a new one');

/**
 * The app's exchange of an activation code for a device token. Limits first: every attempt of a client address
 * counts against its limit per window, and while the failed attempts of all addresses together reach theirs,
 * nobody may try (429). Then the payload: a device name that is blank after trimming is refused (422) before the
 * code is looked at, so a bad payload never uses up a code. Then the code: it must be open, unexpired and its
 * person still a member; it is marked used in the same statement that finds it, so two exchanges of one code
 * cannot both succeed. The device token is answered here once and kept hashed.
 */
export async function pairDevice(
  db: Db,
  limits: AbaclikConfig,
  client: { address: string; userAgent?: string },
  body: AbaclikPairBody,
): Promise<AbaclikPairing> {
  await checkLimit(db, 'abaclik-pairing', client.address, { max: limits.attemptsPerAddress });
  await checkLimit(db, 'abaclik-failures', 'all', { max: limits.failuresGlobal, take: false });

  const deviceName = body.deviceName.trim();
  if (!deviceName) throw invalidField('deviceName', 'must not be blank');
  const code = normalizeActivationCode(body.code);
  const token = newDeviceToken();
  const paired = code
    ? await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ uuid: string; account_uuid: string; user_uuid: string }>(
          `update abaclik_codes c set used_at = now()
            where c.code_hash = $1 and c.used_at is null and c.expires_at > now()
              and exists (select 1 from account_members m
                           where m.account_uuid = c.account_uuid and m.user_uuid = c.user_uuid
                             and m.invitation_status = 'ACCEPTED')
           returning c.uuid, c.account_uuid, c.user_uuid`,
          [hash(code)],
        );
        const found = rows[0];
        if (!found) return null;
        const deviceUuid = crypto.randomUUID();
        await tx.query(
          `insert into abaclik_devices (uuid, account_uuid, user_uuid, name, platform, app_version, token_hash)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            deviceUuid,
            found.account_uuid,
            found.user_uuid,
            deviceName,
            body.platform,
            body.appVersion,
            hash(token),
          ],
        );
        await tx.query('update abaclik_codes set device_uuid = $1 where uuid = $2', [deviceUuid, found.uuid]);
        const device = (await findDevice(tx, found.account_uuid, deviceUuid))!;
        const actor: Actor = {
          uuid: found.user_uuid,
          clientAddress: client.address,
          userAgent: client.userAgent,
        };
        await writeAudit(tx, {
          accountUuid: found.account_uuid,
          actor,
          action: 'abaclik.device-paired',
          target: `user:${found.user_uuid}`,
          after: auditedDevice(device),
        });
        const account = await tx.query<{ name: string }>('select name from accounts where uuid = $1', [
          found.account_uuid,
        ]);
        return { device, account: { uuid: found.account_uuid, name: account.rows[0]!.name } };
      })
    : null;
  if (!paired) {
    await countHit(db, 'abaclik-failures', 'all');
    throw invalidCode();
  }
  const { device, account } = paired;
  return {
    token,
    device: {
      uuid: device.uuid,
      name: device.name,
      platform: device.platform,
      appVersion: device.app_version,
      pairedAt: iso(device.paired_at),
    },
    account,
    person: { uuid: device.user_uuid, name: device.user_name, email: device.user_email },
  };
}

/** 401 for a missing, unknown or revoked device token (or a person no longer in the account). */
export const deviceRefused = () =>
  new HttpError(
    401,
    'DEVICE_NOT_PAIRED',
    'This device is not paired (any more); pair it again in the portal',
  );

/** The app's heartbeat: the paired device is seen now, with the app version it reports. */
export async function heartbeat(
  db: Db,
  token: string | undefined,
  body: AbaclikHeartbeatBody,
): Promise<AbaclikHeartbeat> {
  if (!token) throw deviceRefused();
  const { rows } = await db.query<{ uuid: string; account_uuid: string; last_seen_at: Date }>(
    `update abaclik_devices d set last_seen_at = now(), app_version = $2
      where d.token_hash = $1
        and exists (select 1 from account_members m
                     where m.account_uuid = d.account_uuid and m.user_uuid = d.user_uuid
                       and m.invitation_status = 'ACCEPTED')
     returning d.uuid, d.account_uuid, d.last_seen_at`,
    [hash(token), body.appVersion],
  );
  const row = rows[0];
  if (!row) throw deviceRefused();
  return { deviceUuid: row.uuid, accountUuid: row.account_uuid, lastSeenAt: iso(row.last_seen_at) };
}
