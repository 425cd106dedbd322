// An account's rule that its members must use a second factor: who counts as having one, and the one check every
// area route of an account makes (the account-scope hook asks it through accessFor's query).
import type { TwoFactorState } from '@portal/contract';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';
import type { AccountAccess, PortalUser } from '../http/types.ts';

/**
 * Whether the access token proves a second factor at sign-in: its `amr` names one of the configured methods
 * (OIDC_MFA_AMR, e.g. otp, hwk, mfa), or its `acr` is the configured level (OIDC_MFA_ACR). With an external
 * Keycloak this is all the portal knows; the embedded sign-in service also knows what a person has set up.
 */
export function tokenShowsSecondFactor(
  oidc: Pick<Config['oidc'], 'mfaAmr' | 'mfaAcr'>,
  claims: { authMethods?: string[]; authLevel?: string },
): boolean {
  if (claims.authMethods?.some((method) => oidc.mfaAmr.includes(method))) return true;
  return oidc.mfaAcr !== null && claims.authLevel === oidc.mfaAcr;
}

const UUID_PATTERN = '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$';

/** The identity id behind a user of the embedded sign-in service (its subject), or null for another provider's. */
export function identityIdOf(user: Pick<PortalUser, 'subject'>): string | null {
  return new RegExp(UUID_PATTERN, 'i').test(user.subject) ? user.subject : null;
}

/** SQL: the identity id of the `users` row `alias` (its subject as uuid), null for another provider's subject. */
export const identityOfUserSql = (alias: string) =>
  `(case when ${alias}.subject ~* '${UUID_PATTERN}' then ${alias}.subject::uuid end)`;

/**
 * SQL: whether the identity `identity` (a uuid expression, null for none) has a second factor set up with the
 * embedded sign-in service: a confirmed authenticator app or a passkey.
 */
export const enrolledSecondFactorSql = (identity: string) =>
  `(exists (select 1 from idp_totp tf where tf.identity_id = ${identity} and tf.confirmed_at is not null)
    or exists (select 1 from idp_passkeys pk where pk.identity_id = ${identity}))`;

/**
 * SQL: the account `a`'s rule as it applies to the person with parameters `identity` (uuid or null) and `shown`
 * (the token proves a second factor): 'none' without the rule or when they have a second factor, 'grace' until the
 * grace period ends, 'enforced' after it. Joins nothing: reads the policy of `a.uuid` in a subquery.
 */
export const twoFactorStateSql = (identity: string, shown: string) => `(
  select case
           when not p.enabled or ${shown} or ${enrolledSecondFactorSql(identity)} then 'none'
           when p.grace_until > now() then 'grace'
           else 'enforced'
         end
    from account_two_factor_policies p where p.account_uuid = a.uuid)`;

/** Parameters for twoFactorStateSql: the user's identity and whether their token proves a second factor. */
export const twoFactorParams = (user: PortalUser) => [identityIdOf(user), user.secondFactorShown ?? false];

export const stateOf = (value: string | null | undefined): TwoFactorState =>
  value === 'grace' || value === 'enforced' ? value : 'none';

/**
 * The account's rule on an area route: a member without a second factor is refused once the grace period is over
 * (403 TWO_FACTOR_REQUIRED); their own settings (users/v1) and their other accounts stay reachable, and nobody is
 * removed. Staff acting on the account are let through; the caller logs that they passed the rule.
 */
export function assertTwoFactor(access: AccountAccess): void {
  if (access.twoFactor !== 'enforced' || access.viaStaff) return;
  throw new HttpError(
    403,
    'TWO_FACTOR_REQUIRED',
    'This account requires two-factor authentication: set up an authenticator app or a passkey in your security settings first',
  );
}
