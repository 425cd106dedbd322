import crypto from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { Queryable } from '../db/client.ts';
import type { Secrets } from '../secrets/secrets.ts';

/**
 * The authenticator app (TOTP, RFC 6238) of an identity and its recovery codes: what the API (enrol, confirm,
 * disable) and the sign-in pages (check a code) share. Codes are SHA-1, 6 digits, 30-second steps; a code of the
 * step before or after the current one is accepted too (clocks of phones drift), but never a step at or before the
 * last accepted one, so a code cannot be used twice.
 */

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted on either side of the current one. */
export const TOTP_WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;

/** The purpose a TOTP secret is sealed for: only this identity's row opens it. */
export const totpPurpose = (identityId: string) => `idp_totp:${identityId}`;

const epochNow = () => Math.floor(Date.now() / 1000);

/** A new random secret (20 bytes, as RFC 4226 recommends), base32 as authenticator apps take it. */
export const newTotpSecret = () => generateSecret({ length: 20 });

/** The otpauth:// URI of the QR code: `issuer` (the product) and `label` (the email) name the entry in the app. */
export const totpUri = (secret: string, issuer: string, label: string) =>
  generateURI({ issuer, label, secret, algorithm: 'sha1', digits: TOTP_DIGITS, period: TOTP_PERIOD });

/** A code as typed: digits only (spaces and dashes some people type are dropped). */
export const normaliseTotpCode = (code: string) => code.replace(/[\s-]/g, '');

/**
 * The time step of `code` when it is right for `secret` at `epoch` (seconds) within the window and later than
 * `lastStep`; otherwise null.
 */
export function totpStep(
  secret: string,
  code: string,
  options: { epoch?: number; lastStep?: number | null } = {},
): number | null {
  const token = normaliseTotpCode(code);
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const result = verifySync({
    secret,
    token,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    epoch: options.epoch ?? epochNow(),
    epochTolerance: TOTP_WINDOW_STEPS * TOTP_PERIOD,
    ...(options.lastStep != null ? { afterTimeStep: options.lastStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

interface TotpRow {
  secret: string;
  confirmed_at: Date | string | null;
  last_step: number | string | null;
}

/** The identity's authenticator app (confirmed or still being set up), its secret opened. */
export async function findTotp(
  db: Queryable,
  secrets: Secrets,
  identityId: string,
): Promise<{ secret: string; confirmed: boolean; lastStep: number | null } | undefined> {
  const { rows } = await db.query<TotpRow>(
    'select secret, confirmed_at, last_step from idp_totp where identity_id = $1',
    [identityId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    secret: secrets.open(row.secret, totpPurpose(identityId)),
    confirmed: row.confirmed_at !== null,
    lastStep: row.last_step === null ? null : Number(row.last_step),
  };
}

/** Starts setting up an app: a new, unconfirmed secret replaces an unconfirmed earlier one. */
export async function startTotp(db: Queryable, secrets: Secrets, identityId: string, secret: string) {
  await db.query(
    `insert into idp_totp (identity_id, secret) values ($1, $2)
     on conflict (identity_id) do update set secret = excluded.secret, confirmed_at = null, last_step = null,
       created_at = now()
     where idp_totp.confirmed_at is null`,
    [identityId, secrets.seal(secret, totpPurpose(identityId))],
  );
}

/**
 * Takes time step `step` as used: true only when it is later than the last accepted one. One atomic update, so of
 * two requests with the same code only one succeeds. `confirm` also confirms an app being set up.
 */
export async function useTotpStep(
  db: Queryable,
  identityId: string,
  step: number,
  options: { confirm?: boolean } = {},
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update idp_totp set last_step = $2,
       confirmed_at = case when $3::boolean then coalesce(confirmed_at, now()) else confirmed_at end
     where identity_id = $1 and (last_step is null or last_step < $2)
       and (confirmed_at is not null or $3::boolean)`,
    [identityId, step, options.confirm ?? false],
  );
  return (rowCount ?? 0) === 1;
}

/** Turns the app off: its secret and the recovery codes go. */
export async function removeTotp(db: Queryable, identityId: string): Promise<void> {
  await db.query('delete from idp_recovery_codes where identity_id = $1', [identityId]);
  await db.query('delete from idp_totp where identity_id = $1', [identityId]);
}

// Recovery codes: 10 characters of a 31-letter alphabet without look-alikes (0/o, 1/l/i), about 49 random bits each,
// shown as xxxxx-xxxxx.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_LENGTH = 10;

function randomCode(): string {
  let code = '';
  while (code.length < CODE_LENGTH) {
    // Rejection sampling keeps every letter equally likely (256 is not a multiple of the alphabet's length).
    const byte = crypto.randomBytes(1)[0]!;
    if (byte < 256 - (256 % ALPHABET.length)) code += ALPHABET[byte % ALPHABET.length];
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as typed: lower case, without spaces and dashes. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * The stored form of a recovery code: SHA-256 over the identity and the code. The codes are random (about 49 bits), not
 * chosen by people, so a slow password hash adds nothing against guessing; the identity in the hash makes equal
 * codes of two people differ and lets the check look the code up directly.
 */
export const recoveryCodeHash = (identityId: string, code: string) =>
  crypto
    .createHash('sha256')
    .update(`${identityId}:${normaliseRecoveryCode(code)}`)
    .digest('hex');

/** A new set of recovery codes replaces the old one; the codes themselves are returned once, never stored. */
export async function newRecoveryCodes(db: Queryable, identityId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, randomCode);
  await db.query('delete from idp_recovery_codes where identity_id = $1', [identityId]);
  await db.query(`insert into idp_recovery_codes (identity_id, code_hash) select $1, unnest($2::text[])`, [
    identityId,
    codes.map((code) => recoveryCodeHash(identityId, code)),
  ]);
  return codes;
}

/** Uses a recovery code: true only the first time (one atomic update), and only while the app is on. */
export async function useRecoveryCode(db: Queryable, identityId: string, code: string): Promise<boolean> {
  const normalised = normaliseRecoveryCode(code);
  if (normalised.length !== CODE_LENGTH) return false;
  const { rows } = await db.query(
    `update idp_recovery_codes set used_at = now()
     where id = (select id from idp_recovery_codes
                 where identity_id = $1 and code_hash = $2 and used_at is null limit 1)
       and used_at is null
     returning id`,
    [identityId, recoveryCodeHash(identityId, normalised)],
  );
  return rows.length === 1;
}

/** Unused recovery codes left. */
export async function recoveryCodesLeft(db: Queryable, identityId: string): Promise<number> {
  const { rows } = await db.query<{ left: number | string }>(
    'select count(*) as left from idp_recovery_codes where identity_id = $1 and used_at is null',
    [identityId],
  );
  return Number(rows[0]?.left ?? 0);
}
