import { randomUUID } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEYS_MAX } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';

/** The WebAuthn library loads with the first passkey ceremony, not at the server's start (decision 253). */
const webauthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn) of the embedded sign-in service: registering one (the settings page asks through the API)
 * and signing in with one (the second-factor page, and the login page without a password). The relying party is
 * the portal's public address; every ceremony has a random, single-use challenge kept in the database for a few
 * minutes, bound to the person (registration) or to the pending sign-in (authentication).
 */

/** How long a challenge (and so the browser's prompt) stays valid, in seconds. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

/** The relying party: the host name of the public address, its origin and the product's name. */
export function relyingParty(config: Pick<Config, 'publicUrl' | 'productName'>) {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: config.productName };
}

interface ChallengeBinding {
  identityId?: string;
  interactionUid?: string;
}

async function storeChallenge(
  db: Queryable,
  challenge: string,
  purpose: 'register' | 'authenticate',
  binding: ChallengeBinding,
): Promise<void> {
  // Expired challenges are of no use to anybody: each new one clears them.
  await db.query('delete from idp_webauthn_challenges where expires_at < now()');
  await db.query(
    `insert into idp_webauthn_challenges (challenge, purpose, identity_id, interaction_uid, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5::float8))`,
    [challenge, purpose, binding.identityId ?? null, binding.interactionUid ?? null, CHALLENGE_TTL_SECONDS],
  );
}

/**
 * Takes a challenge: true only once, only before it expires and only for the binding it was issued for. Taking it
 * deletes it, so an answer cannot be replayed, and a wrong answer uses it up as well.
 */
async function takeChallenge(
  db: Queryable,
  challenge: string,
  purpose: 'register' | 'authenticate',
  binding: ChallengeBinding,
): Promise<boolean> {
  const { rows } = await db.query(
    `delete from idp_webauthn_challenges
     where challenge = $1 and purpose = $2 and identity_id is not distinct from $3
       and interaction_uid is not distinct from $4 and expires_at > now()
     returning challenge`,
    [challenge, purpose, binding.identityId ?? null, binding.interactionUid ?? null],
  );
  return rows.length === 1;
}

export interface PasskeyRow {
  id: string;
  identity_id: string;
  credential_id: string;
  public_key: Uint8Array;
  sign_count: number | string;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

/** The credentials of a person, as `excludeCredentials` / `allowCredentials` name them. */
async function credentialsOf(db: Queryable, identityId: string) {
  const { rows } = await db.query<{ credential_id: string; transports: string[] }>(
    'select credential_id, transports from idp_passkeys where identity_id = $1 order by created_at',
    [identityId],
  );
  return rows.map((row) => ({ id: row.credential_id, transports: row.transports }));
}

/** The WebAuthn user handle of an identity: its uuid's 16 bytes (the same for all its passkeys). */
const userHandle = (identityId: string) => new Uint8Array(Buffer.from(identityId.replace(/-/g, ''), 'hex'));

/**
 * The options for the browser to create a passkey for `identity`. A passkey is discoverable (`residentKey`
 * required), so it also signs in without a password, and the authenticator verifies the person (PIN, biometrics),
 * so the passkey alone is two factors. Passkeys the person already has are excluded (no duplicate on a device).
 */
export async function registrationOptions(
  db: Queryable,
  config: Pick<Config, 'publicUrl' | 'productName'>,
  identity: { id: string; email: string; name: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(config);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(identity.id),
    userName: identity.email,
    userDisplayName: identity.name,
    timeout: CHALLENGE_TTL_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: await credentialsOf(db, identity.id),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(db, options.challenge, 'register', { identityId: identity.id });
  return options;
}

/** Why a passkey was not registered: the person has the most allowed, or the browser's answer does not hold. */
export class PasskeyRegistrationError extends Error {
  constructor(readonly reason: 'limit' | 'invalid') {
    super(reason === 'limit' ? `at most ${PASSKEYS_MAX} passkeys` : 'the passkey could not be verified');
    this.name = 'PasskeyRegistrationError';
  }
}

/**
 * Checks the browser's answer to {@link registrationOptions} (challenge of this identity, origin, relying party,
 * user verification) and stores the new passkey with `name`. At most PASSKEYS_MAX per person.
 */
export async function registerPasskey(
  db: Db,
  config: Pick<Config, 'publicUrl' | 'productName'>,
  identityId: string,
  name: string,
  response: RegistrationResponseJSON,
): Promise<PasskeyRow> {
  const rp = relyingParty(config);
  const countOf = async (q: Queryable) => {
    const { rows } = await q.query<{ n: number | string }>(
      'select count(*) as n from idp_passkeys where identity_id = $1',
      [identityId],
    );
    return Number(rows[0]?.n ?? 0);
  };
  if ((await countOf(db)) >= PASSKEYS_MAX) throw new PasskeyRegistrationError('limit');
  let info;
  try {
    // The challenge is taken outside any transaction: a wrong answer uses it up as well.
    const verification = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => takeChallenge(db, challenge, 'register', { identityId }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    info = verification.verified ? verification.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw new PasskeyRegistrationError('invalid');
  const { credential, credentialDeviceType, credentialBackedUp } = info;
  return db.transaction(async (tx) => {
    // One registration of a person at a time, so two parallel ones cannot pass the limit together.
    await tx.query('select id from idp_identities where id = $1 for update', [identityId]);
    if ((await countOf(tx)) >= PASSKEYS_MAX) throw new PasskeyRegistrationError('limit');
    const { rows } = await tx.query<PasskeyRow>(
      `insert into idp_passkeys
         (id, identity_id, credential_id, public_key, sign_count, transports, device_type, backed_up, name)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (credential_id) do nothing
       returning *`,
      [
        randomUUID(),
        identityId,
        credential.id,
        Buffer.from(credential.publicKey),
        credential.counter,
        credential.transports ?? [],
        credentialDeviceType,
        credentialBackedUp,
        name,
      ],
    );
    if (!rows[0]) throw new PasskeyRegistrationError('invalid');
    return rows[0];
  });
}

/**
 * The options for the browser to sign in with a passkey on interaction `interactionUid`. With `identityId` (the
 * second factor after a right password) only that person's passkeys are allowed; without (sign-in without a
 * password) any discoverable passkey of this site is, and the authenticator must verify the person.
 */
export async function authenticationOptions(
  db: Queryable,
  config: Pick<Config, 'publicUrl' | 'productName'>,
  binding: { interactionUid: string; identityId?: string },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    rpID: relyingParty(config).id,
    allowCredentials: binding.identityId ? await credentialsOf(db, binding.identityId) : [],
    userVerification: binding.identityId ? 'preferred' : 'required',
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  await storeChallenge(db, options.challenge, 'authenticate', binding);
  return options;
}

/** The browser's answer as a form field carries it (JSON); undefined when it is not one. */
export function parseAssertion(text: string): AuthenticationResponseJSON | undefined {
  try {
    const value = JSON.parse(text) as AuthenticationResponseJSON;
    const ok =
      typeof value?.id === 'string' &&
      typeof value.response?.clientDataJSON === 'string' &&
      typeof value.response.authenticatorData === 'string' &&
      typeof value.response.signature === 'string';
    return ok ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The challenge the browser signed (from its client data), undefined when unreadable. */
function signedChallenge(response: AuthenticationResponseJSON): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a sign-in with a passkey: the challenge issued for this interaction (and person) is taken first, whatever
 * follows; then the passkey must be known (and the person's, with `identityId`), the signature, origin and relying
 * party right, the authenticator's counter higher than the last one (a cloned authenticator is refused), and
 * without `identityId` the person verified. The passkey's counter and last use are updated. Returns who signed in,
 * or undefined — without telling why (an unknown passkey says nothing about which accounts exist).
 */
export async function verifyAssertion(
  db: Queryable,
  config: Pick<Config, 'publicUrl' | 'productName'>,
  binding: { interactionUid: string; identityId?: string },
  response: AuthenticationResponseJSON,
): Promise<{ identityId: string; userVerified: boolean } | undefined> {
  const challenge = signedChallenge(response);
  if (!challenge || !(await takeChallenge(db, challenge, 'authenticate', binding))) return undefined;
  const { rows } = await db.query<PasskeyRow>(
    `select * from idp_passkeys where credential_id = $1 and ($2::uuid is null or identity_id = $2::uuid)`,
    [response.id, binding.identityId ?? null],
  );
  const passkey = rows[0];
  if (!passkey) return undefined;
  const rp = relyingParty(config);
  const counter = Number(passkey.sign_count);
  let result;
  try {
    result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter,
        transports: passkey.transports,
      },
      requireUserVerification: !binding.identityId,
    });
  } catch {
    return undefined;
  }
  if (!result.verified) return undefined;
  // Only if nobody used the counter in between: two answers with the same counter cannot both pass.
  const { rows: updated } = await db.query(
    `update idp_passkeys set sign_count = $2, last_used_at = now(), backed_up = $4
     where id = $1 and sign_count = $3 returning id`,
    [passkey.id, result.authenticationInfo.newCounter, counter, result.authenticationInfo.credentialBackedUp],
  );
  if (updated.length !== 1) return undefined;
  return { identityId: passkey.identity_id, userVerified: result.authenticationInfo.userVerified };
}
