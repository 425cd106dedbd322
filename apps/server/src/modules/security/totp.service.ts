import type { RecoveryCodes, TotpEnrolment } from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Secrets } from '../../secrets/secrets.ts';
import type { Identity } from '../../idp/identities.ts';
import {
  findTotp,
  newRecoveryCodes,
  newTotpSecret,
  removeTotp,
  startTotp,
  totpStep,
  totpUri,
  useTotpStep,
} from '../../idp/totp.ts';
import { sendTotpEventMail, type TotpEvent } from '../../idp/totp-mails.ts';
import { confirmCurrentPassword, ownIdentity } from './security.service.ts';

export interface TotpDeps {
  db: Db;
  config: Config;
  secrets: Secrets;
  mailer: Mailer;
}

/**
 * Makes a change to the person's two-factor in one transaction: `change`, then its audit entry (`action`) and the
 * notice mail of `event` (queued in the same transaction, so it goes only when the change is kept).
 */
function recordChange<T>(
  deps: TotpDeps,
  user: PortalUser,
  identityId: string,
  what: { action: string; event: TotpEvent },
  change: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const result = await change(tx);
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: what.action,
      target: `user:${user.uuid}`,
    });
    const mailDeps = { db: deps.db, mailer: deps.mailer, productName: deps.config.productName };
    await sendTotpEventMail(mailDeps, what.event, identityId, { tx });
    return result;
  });
}

/**
 * Starts setting up the authenticator app: a new secret (sealed, unconfirmed until its first code) as QR code and as
 * text. An app already on must be turned off first.
 */
export async function startEnrolment(deps: TotpDeps, user: PortalUser): Promise<TotpEnrolment> {
  const identity = await ownIdentity(deps, user);
  const current = await findTotp(deps.db, deps.secrets, identity.id);
  if (current?.confirmed) {
    throw new HttpError(
      409,
      'TOTP_ALREADY_ENABLED',
      'An authenticator app is already set up: turn it off first',
    );
  }
  const secret = newTotpSecret();
  await startTotp(deps.db, deps.secrets, identity.id, secret);
  const issuer = deps.config.productName;
  const uri = totpUri(secret, issuer, identity.email);
  return {
    // qrcode loads with the first code drawn, not at the server's start (decision 253).
    qrSvg: await (
      await import('qrcode')
    ).default.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    secret,
    issuer,
    label: identity.email,
  };
}

/** Turns the app on with its first code; answers the 10 recovery codes (the only time they are shown). */
export async function confirmEnrolment(
  deps: TotpDeps,
  user: PortalUser,
  code: string,
): Promise<RecoveryCodes> {
  const identity = await ownIdentity(deps, user);
  const current = await findTotp(deps.db, deps.secrets, identity.id);
  if (!current) throw new HttpError(409, 'TOTP_NOT_STARTED', 'Start setting up the authenticator app first');
  if (current.confirmed)
    throw new HttpError(409, 'TOTP_ALREADY_ENABLED', 'The authenticator app is already on');
  const invalid = new HttpError(422, 'INVALID_CODE', 'The code is wrong or has expired', { code: 'invalid' });
  const step = totpStep(current.secret, code, { lastStep: current.lastStep });
  if (step === null) throw invalid;
  const what = { action: 'security.totp.enable', event: 'enabled' } as const;
  return recordChange(deps, user, identity.id, what, async (tx) => {
    if (!(await useTotpStep(tx, identity.id, step, { confirm: true }))) throw invalid;
    return { codes: await newRecoveryCodes(tx, identity.id) };
  });
}

async function enabledTotp(deps: TotpDeps, identity: Identity) {
  const current = await findTotp(deps.db, deps.secrets, identity.id);
  if (!current?.confirmed) throw new HttpError(409, 'TOTP_NOT_ENABLED', 'No authenticator app is set up');
}

/** Turns the app off after the current password; its recovery codes go with it. */
export async function disableTotp(deps: TotpDeps, user: PortalUser, password: string): Promise<void> {
  const identity = await ownIdentity(deps, user);
  await enabledTotp(deps, identity);
  await confirmCurrentPassword(deps, user, identity, password, 'password');
  const what = { action: 'security.totp.disable', event: 'disabled' } as const;
  await recordChange(deps, user, identity.id, what, (tx) => removeTotp(tx, identity.id));
}

/** Ten new recovery codes replace the old ones, after the current password. */
export async function regenerateRecoveryCodes(
  deps: TotpDeps,
  user: PortalUser,
  password: string,
): Promise<RecoveryCodes> {
  const identity = await ownIdentity(deps, user);
  await enabledTotp(deps, identity);
  await confirmCurrentPassword(deps, user, identity, password, 'password');
  const what = { action: 'security.recovery_codes.renew', event: 'recoveryCodesRenewed' } as const;
  return recordChange(deps, user, identity.id, what, async (tx) => ({
    codes: await newRecoveryCodes(tx, identity.id),
  }));
}
