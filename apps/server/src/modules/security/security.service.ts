import { PASSWORD_CHANGE_ERRORS, SIGN_IN_MANAGED_EXTERNALLY, type SecurityOverview } from '@portal/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, invalidField } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { BruteForceGuard } from '../../idp/brute-force.ts';
import { findIdentityById, verifyPassword, type Identity } from '../../idp/identities.ts';
import { hasSecondFactor, secondFactorsOf } from '../../idp/second-factor.ts';

/** The account console of an external Keycloak realm, where its people manage their own sign-in. */
export const accountConsoleUrl = (config: Config) => `${config.oidc.issuer}/account`;

/** With an external Keycloak the portal keeps no credentials: its account console is the place (409). */
export function requireEmbedded(config: Config): void {
  if (!config.oidc.embedded) {
    throw new HttpError(
      409,
      SIGN_IN_MANAGED_EXTERNALLY,
      'The sign-in is managed by the identity provider: use its account console',
    );
  }
}

/** The signed-in person's identity in the embedded sign-in service (409 when an external Keycloak keeps it). */
export async function ownIdentity(
  { db, config }: { db: Db; config: Config },
  user: PortalUser,
): Promise<Identity> {
  requireEmbedded(config);
  const identity = await findIdentityById(db, user.subject);
  if (!identity) {
    throw new HttpError(409, SIGN_IN_MANAGED_EXTERNALLY, 'This sign-in is not kept by the embedded service');
  }
  return identity;
}

/**
 * Checks the person's current password before a change to their sign-in (password, email, a second factor). It
 * counts towards the same lockout as the sign-in page, per identity and client address: the attempt is counted before
 * the check and given back when it is right; while locked even the right one is refused. Wrong: 422 with
 * `{ [field]: 'wrongPassword' }`; locked: 429 LOCKED with `{ [field]: 'locked', retryAfter }` (seconds).
 */
export async function confirmCurrentPassword(
  { db, config }: { db: Db; config: Config },
  user: PortalUser,
  identity: Identity,
  password: string,
  field: string,
): Promise<void> {
  const bf = config.idp.bruteForce;
  const guard = new BruteForceGuard(db, bf);
  const identityKey = guard.identityKey(identity.email);
  const lockedOut = (seconds: number) =>
    new HttpError(429, 'LOCKED', `Too many wrong passwords; try again in ${seconds} seconds`, {
      [field]: PASSWORD_CHANGE_ERRORS.locked,
      retryAfter: String(seconds),
    });
  const reserved = await guard.reserve([
    { key: guard.addressKey(user.clientAddress ?? 'unknown'), threshold: bf.maxFailuresPerAddress },
    { key: identityKey, threshold: bf.maxFailuresPerIdentity },
  ]);
  if ('lockedFor' in reserved) throw lockedOut(reserved.lockedFor);
  const { valid } = await verifyPassword(db, identity.email, password);
  if (!valid) {
    const wait = guard.failed(reserved.reservation);
    if (wait > 0) throw lockedOut(wait);
    throw invalidField(field, PASSWORD_CHANGE_ERRORS.wrongPassword);
  }
  await guard.succeeded(reserved.reservation, identityKey);
}

export async function getOverview(db: Db, config: Config, user: PortalUser): Promise<SecurityOverview> {
  if (!config.oidc.embedded) {
    return {
      provider: 'external',
      accountConsoleUrl: accountConsoleUrl(config),
      totpEnabled: false,
      recoveryCodesLeft: 0,
      passkeyCount: 0,
      hasSecondFactor: false,
    };
  }
  const factors = await secondFactorsOf(db, user.subject);
  const { rows } = await db.query<{ left: number | string }>(
    'select count(*) as left from idp_recovery_codes where identity_id = $1 and used_at is null',
    [user.subject],
  );
  return {
    provider: 'embedded',
    accountConsoleUrl: null,
    totpEnabled: factors.totp,
    recoveryCodesLeft: factors.totp ? Number(rows[0]?.left ?? 0) : 0,
    passkeyCount: factors.passkeys,
    hasSecondFactor: hasSecondFactor(factors),
  };
}
