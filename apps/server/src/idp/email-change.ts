import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  consumeActionToken,
  createActionToken,
  peekActionToken,
  revokeActionTokens,
} from './action-tokens.ts';
import { findIdentityById, type Identity } from './identities.ts';
import { interactionPath, sendPage, type InteractionKit } from './interaction-kit.ts';
import { emailChangePageTexts, fill, securityMail, type EventOrigin } from './security-mails.ts';
import { homeLink, messagePage } from './views.ts';
import { shortBrowser } from '../http/user-agent.ts';

/**
 * A change of the email address a person signs in with. Asked for in the portal (with the current password), it
 * mails a one-time link to the new address and a notice to the old one; the change applies only when the link is
 * opened — then the identity's address changes (verified), the portal's user row follows, and the old address is
 * told. Like Keycloak's action tokens, the link works in any browser, once, for a day.
 */

/** The path of the confirmation link (no sign-in flow is pending: a fixed segment stands where its uid would be). */
const LINK_SEGMENT = 'action-token';
const LINK_PAGE = '/email-change';

export interface PendingEmailChange {
  email: string;
  expiresAt: Date;
}

/** The origin of a request as the security mails name it. */
export const originOf = (request: { headers: Record<string, unknown>; ip: string }): EventOrigin => {
  const userAgent = request.headers['user-agent'];
  return {
    at: new Date(),
    browser: shortBrowser(typeof userAgent === 'string' ? userAgent : null),
    address: request.ip,
  };
};

/** Whether another identity signs in with `email` already. */
export async function emailInUse(db: Queryable, email: string, exceptId: string): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from idp_identities where lower(email) = lower($1) and id <> $2 limit 1',
    [email, exceptId],
  );
  return rows.length > 0;
}

/** The identity's change still waiting for its link, if any. */
export async function pendingEmailChange(
  db: Queryable,
  identityId: string,
): Promise<PendingEmailChange | null> {
  const { rows } = await db.query<{ email: string; expires_at: Date | string }>(
    `select email, expires_at from idp_action_tokens
     where identity_id = $1 and kind = 'email-change' and used_at is null and expires_at > now()
     order by created_at desc limit 1`,
    [identityId],
  );
  return rows[0] ? { email: rows[0].email, expiresAt: new Date(rows[0].expires_at) } : null;
}

export const cancelEmailChange = (db: Queryable, identityId: string) =>
  revokeActionTokens(db, 'email-change', identityId);

/**
 * Starts a change to `newEmail` (checked by the caller: valid, another address, not asked for within the minute):
 * ends an earlier pending change and tells the old address. The link goes to the new address — unless `holder`, another
 * identity, signs in with it already: then no link goes anywhere and the holder is told that someone tried. The
 * person asking sees the same either way (the pending change, which cannot complete and expires), so the form does
 * not tell who has an account.
 */
export async function requestEmailChange(
  { db, mailer, config }: { db: Db; mailer: Mailer; config: Config },
  identity: Identity,
  newEmail: string,
  origin: EventOrigin,
  holder?: Identity,
): Promise<PendingEmailChange> {
  const token = await createActionToken(
    db,
    'email-change',
    { id: identity.id, email: newEmail },
    identity.email,
  );
  const product = config.productName;
  if (holder) {
    await mailer.send(securityMail('emailAddressInUse', holder, origin, product, { email: holder.email }));
  } else {
    const link = `${config.publicUrl}${interactionPath(LINK_SEGMENT)}${LINK_PAGE}?key=${token}&kc_locale=${identity.locale}`;
    await mailer.send(
      securityMail('emailChangeRequested', identity, origin, product, {
        to: newEmail,
        email: newEmail,
        link,
      }),
    );
  }
  await mailer.send(securityMail('emailChangeNotice', identity, origin, product, { email: newEmail }));
  return (await pendingEmailChange(db, identity.id))!;
}

type Applied = { identity: Identity; email: string } | 'invalid' | 'unavailable';

/**
 * Applies the change of the link `key`, once: only while the identity still has the address it had when the change
 * was asked for, and only when no other identity took the new address in the meantime.
 */
async function applyEmailChange(db: Db, key: string): Promise<Applied> {
  return db.transaction(async (tx): Promise<Applied> => {
    const link = await peekActionToken(tx, 'email-change', key);
    const identity = link && (await findIdentityById(tx, link.identityId));
    if (!link || !identity || identity.email.toLowerCase() !== link.previousEmail?.toLowerCase()) {
      return 'invalid';
    }
    if (await emailInUse(tx, link.email, identity.id)) return 'unavailable';
    // Used up now, atomically: of two openings of one link, one wins.
    if (!(await consumeActionToken(tx, 'email-change', key))) return 'invalid';
    await tx.query(
      'update idp_identities set email = $2, email_verified = true, updated_at = now() where id = $1',
      [identity.id, link.email],
    );
    // The portal's user row follows at once (the next token carries the new address as well).
    await tx.query(
      'update users set email = $2, email_verified = true, updated_at = now() where subject = $1',
      [identity.id, link.email],
    );
    // Links mailed to the old address no longer work.
    await revokeActionTokens(tx, 'reset-password', identity.id);
    await revokeActionTokens(tx, 'verify-email', identity.id);
    return { identity, email: link.email };
  });
}

/** The page the mailed link opens: applies the change and says so, or why not. */
export function registerEmailChangeLink(kit: InteractionKit) {
  const { db, mailer, config } = kit.deps;

  kit.linkRoute('GET', LINK_PAGE, async (call) => {
    const { request, reply, locale, t } = call;
    const texts = emailChangePageTexts(locale);
    const key = String(request.query.key ?? '');
    const applied = request.params.uid === LINK_SEGMENT && key ? await applyEmailChange(db, key) : 'invalid';
    const page = (kind: 'success' | 'error', text: string, status = 200) =>
      sendPage(
        reply,
        messagePage(kit.pageContext(locale), {
          title: texts.pageTitle,
          alert: { kind, text },
          link: homeLink(t, config.publicUrl, config.productName),
        }),
        status,
      );
    if (applied === 'invalid') return page('error', texts.pageInvalid, 400);
    if (applied === 'unavailable') return page('error', texts.pageUnavailable, 409);
    const { identity, email } = applied;
    await mailer.send(
      securityMail('emailChanged', identity, originOf(request), config.productName, { email }),
    );
    return page('success', fill(texts.pageDone, { email }));
  });
}
