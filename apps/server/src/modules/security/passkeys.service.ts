import { isLanguage, type Passkey } from '@portal/contract';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { writeAudit } from '../../audit/audit.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { findIdentityById } from '../../idp/identities.ts';
import { passkeyAddedMail } from '../../idp/passkey-mail.ts';
import {
  PasskeyRegistrationError,
  registerPasskey,
  registrationOptions,
  type PasskeyRow,
} from '../../idp/passkeys.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { shortBrowser } from '../../http/user-agent.ts';

/** The signed-in person's passkeys: register, list, rename, remove (the WebAuthn part is in idp/passkeys.ts). */

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: iso(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
  backedUp: row.backed_up,
});

export async function listPasskeys(db: Db, user: PortalUser): Promise<Passkey[]> {
  const { rows } = await db.query<PasskeyRow>(
    'select * from idp_passkeys where identity_id = $1 order by created_at, id',
    [user.subject],
  );
  return rows.map(toPasskey);
}

export async function startRegistration(db: Db, config: Config, user: PortalUser) {
  const identity = await findIdentityById(db, user.subject);
  if (!identity) throw notFound();
  return registrationOptions(db, config, identity);
}

/** Registers the passkey, records it in the audit log and tells the person by mail. */
export async function finishRegistration(
  deps: { db: Db; config: Config; mailer: Mailer },
  user: PortalUser,
  name: string,
  response: RegistrationResponseJSON,
): Promise<Passkey> {
  const { db, config, mailer } = deps;
  const identity = await findIdentityById(db, user.subject);
  if (!identity) throw notFound();
  let row: PasskeyRow;
  try {
    row = await registerPasskey(db, config, identity.id, name.trim(), response);
  } catch (error) {
    if (!(error instanceof PasskeyRegistrationError)) throw error;
    if (error.reason === 'limit') {
      throw new HttpError(422, 'PASSKEY_LIMIT', error.message);
    }
    throw new HttpError(400, 'PASSKEY_INVALID', 'The passkey could not be verified; please try again');
  }
  const passkey = toPasskey(row);
  await db.transaction(async (tx) => {
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: 'security.passkey.add',
      target: `passkey:${passkey.id}`,
      after: { name: passkey.name },
    });
    await mailer.send(
      passkeyAddedMail({
        to: identity.email,
        name: identity.name,
        locale: isLanguage(user.language) ? user.language : identity.locale,
        passkeyName: passkey.name,
        at: new Date(passkey.createdAt),
        browser: shortBrowser(user.userAgent ?? null),
        product: config.productName,
        settingsUrl: `${config.publicUrl}/settings/users?tab=security`,
      }),
      tx,
    );
  });
  return passkey;
}

export async function renamePasskey(db: Db, user: PortalUser, id: string, name: string): Promise<Passkey> {
  return db.transaction(async (tx) => {
    const { rows: before } = await tx.query<PasskeyRow>(
      'select * from idp_passkeys where id = $1 and identity_id = $2 for update',
      [id, user.subject],
    );
    // Another person's passkey is as unknown as a missing one.
    if (!before[0]) throw notFound();
    const { rows } = await tx.query<PasskeyRow>(
      'update idp_passkeys set name = $3 where id = $1 and identity_id = $2 returning *',
      [id, user.subject, name.trim()],
    );
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: 'security.passkey.rename',
      target: `passkey:${id}`,
      before: { name: before[0].name },
      after: { name: rows[0]!.name },
    });
    return toPasskey(rows[0]!);
  });
}

/**
 * Removes a passkey. Removing the last second factor is allowed here; whether an account's rule then asks the
 * person to set up another one is that rule's concern.
 */
export async function removePasskey(db: Db, user: PortalUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<PasskeyRow>(
      'delete from idp_passkeys where id = $1 and identity_id = $2 returning *',
      [id, user.subject],
    );
    if (!rows[0]) throw notFound();
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: 'security.passkey.remove',
      target: `passkey:${id}`,
      before: { name: rows[0].name },
    });
  });
}
