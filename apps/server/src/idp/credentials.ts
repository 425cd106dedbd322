import type { Db } from '../db/client.ts';
import { endIdentitySessions } from './adapter.ts';
import { setPassword } from './identities.ts';

/**
 * Credentials changed (a password reset, later a password change): the new password is set and, in the same
 * transaction, everything the old one opened ends — the SSO sessions on every device, the grants with their refresh
 * tokens, and every outstanding reset link. Access tokens issued before stay valid until they expire (at most the
 * access-token lifetime), as the API checks them without asking the sign-in service.
 */
export async function changePassword(db: Db, identityId: string, password: string): Promise<void> {
  await db.transaction(async (tx) => {
    await setPassword(tx, identityId, password);
    await endIdentitySessions(tx, identityId);
  });
}
