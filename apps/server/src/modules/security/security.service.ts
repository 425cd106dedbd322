import type { SecurityOverview } from '@portal/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PortalUser } from '../../http/types.ts';
import { hasSecondFactor, secondFactorsOf } from '../../idp/second-factor.ts';

/** The account console of an external Keycloak realm, where its people manage their own sign-in. */
export const accountConsoleUrl = (config: Config) => `${config.oidc.issuer}/account`;

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
