import type { Queryable } from '../db/client.ts';
import type { InteractionCall, InteractionKit } from './interaction-kit.ts';
import { recordSignIn, type SignInMethod } from './sign-in-history.ts';
import { secondFactorPage, type Alert } from './views.ts';

/** The second factors a person has set up: a confirmed authenticator app (TOTP) and their passkeys. */
export interface SecondFactors {
  totp: boolean;
  passkeys: number;
}

export async function secondFactorsOf(db: Queryable, identityId: string): Promise<SecondFactors> {
  const { rows } = await db.query<{ totp: boolean; passkeys: number | string }>(
    `select exists (select 1 from idp_totp where identity_id = $1 and confirmed_at is not null) as totp,
            (select count(*) from idp_passkeys where identity_id = $1) as passkeys`,
    [identityId],
  );
  return { totp: Boolean(rows[0]?.totp), passkeys: Number(rows[0]?.passkeys ?? 0) };
}

export const hasSecondFactor = (factors: SecondFactors) => factors.totp || factors.passkeys > 0;

/** How long a right password waits for its second factor before the sign-in starts again (seconds). */
const SECOND_FACTOR_WINDOW = 5 * 60;
/** Where the interaction keeps "password checked" until the second factor settles the sign-in. */
const PENDING = 'portalSecondFactor';
const epoch = () => Math.floor(Date.now() / 1000);

interface Pending {
  accountId: string;
  /** When the password was checked (epoch seconds). */
  at: number;
}

/**
 * The password was right and the person has a second factor: the interaction remembers who (for a few minutes),
 * and the browser goes on to the second-factor page. Nothing is signed in until a second factor settles it.
 */
export async function awaitSecondFactor(kit: InteractionKit, call: InteractionCall, accountId: string) {
  const { interaction } = call;
  interaction.result = { ...interaction.result, [PENDING]: { accountId, at: epoch() } satisfies Pending };
  await interaction.save(Math.max(1, (interaction.exp ?? epoch() + 60) - epoch()));
  return call.reply
    .header('cache-control', 'no-store')
    .redirect(`${kit.pagePath(call, '/second-factor')}?kc_locale=${call.locale}`, 303);
}

/** The identity whose password this interaction checked, while its second factor is still due. */
export function pendingSecondFactor(call: InteractionCall): string | undefined {
  const pending = call.interaction.result?.[PENDING] as Pending | undefined;
  if (!pending || epoch() - pending.at > SECOND_FACTOR_WINDOW) return undefined;
  return pending.accountId;
}

/** The method a sign-in history entry names for `amr` (the factor that settled it). */
function methodOf(amr: string[]): SignInMethod {
  if (amr.includes('otp')) return 'totp';
  if (amr.includes('hwk') || amr.includes('swk')) return 'passkey';
  if (amr.includes('kba')) return 'recovery-code';
  return 'password';
}

/**
 * Ends the sign-in (after the password, or after the second factor): `amr` says how (RFC 8176: `pwd`, `otp`, `hwk`,
 * `mfa`…). The sign-in history records it, and a browser the person has not signed in with before is told by mail.
 */
export async function finishSignIn(
  kit: InteractionKit,
  call: InteractionCall,
  accountId: string,
  amr: string[],
) {
  const { db, mailer, config } = kit.deps;
  const { request } = call;
  await recordSignIn(
    db,
    {
      identityId: accountId,
      outcome: 'success',
      method: methodOf(amr),
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    },
    { mailer, config },
  );
  return kit.finish(call, {
    login: { accountId, remember: false, amr },
    // Signing in from the registration page also settles prompt=create.
    create: {},
  });
}

/**
 * A part of the second-factor page, contributed by one kind of factor (the authenticator app, passkeys): its HTML
 * when the person has that kind set up, else ''.
 */
export type SecondFactorSection = (
  call: InteractionCall,
  factors: SecondFactors,
  extra: { alert?: Alert },
) => string | Promise<string>;

export interface SecondFactorPage {
  /** The page again, e.g. with the error of a wrong code. */
  show(call: InteractionCall, extra?: { alert?: Alert; status?: number }): Promise<unknown>;
  /** A kind of factor adds its part of the page (in the order added). */
  addSection(section: SecondFactorSection): void;
}

/**
 * The second-factor page `/second-factor` of a pending sign-in: one section per kind of factor the person has.
 * Without a pending password check (expired, or never made) the person starts at the login page again. Each kind of
 * factor adds its section and handles its own form posts (and ends the sign-in with {@link finishSignIn}).
 */
export function registerSecondFactorPage(kit: InteractionKit): SecondFactorPage {
  const { db } = kit.deps;
  const sections: SecondFactorSection[] = [];

  async function show(call: InteractionCall, extra: { alert?: Alert; status?: number } = {}) {
    const accountId = pendingSecondFactor(call);
    if (!accountId) {
      return call.reply.redirect(`${kit.pagePath(call, '/login')}?kc_locale=${call.locale}`, 303);
    }
    const factors = await secondFactorsOf(db, accountId);
    const parts = await Promise.all(sections.map((section) => section(call, factors, extra)));
    return kit.sendInteractionPage(
      call,
      '/second-factor',
      (ctx) => secondFactorPage(ctx, { alert: extra.alert, sections: parts.filter(Boolean) }),
      extra.status,
    );
  }

  kit.interactionRoute('GET', '/second-factor', async (call) => show(call));
  return { show, addSection: (section) => sections.push(section) };
}
