import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/client.ts';

/** Arbitrary constant: serialises key creation when several instances start at once. */
const KEYS_LOCK = 727_010;

export interface IdpSecrets {
  /** Private signing keys, newest first (the provider signs with the first matching one). */
  signingKeys: JWK[];
  /** Cookie signing secrets, newest first. */
  cookieKeys: string[];
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

async function createSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

/** Loads the provider's keys from the database, creating them once (under an advisory lock). */
export async function loadSecrets(db: Db): Promise<IdpSecrets> {
  const read = async () => {
    const { rows } = await db.query<{ name: string; value: unknown }>(
      `select name, value from idp_secrets where name in ('signing-keys', 'cookie-keys')`,
    );
    const byName = new Map(rows.map((row) => [row.name, row.value]));
    const signingKeys = byName.get('signing-keys') as JWK[] | undefined;
    const cookieKeys = byName.get('cookie-keys') as string[] | undefined;
    return signingKeys && cookieKeys ? { signingKeys, cookieKeys } : null;
  };
  const existing = await read();
  if (existing) return existing;

  const fresh = {
    signingKey: await createSigningKey(),
    cookieKey: crypto.randomBytes(32).toString('base64url'),
  };
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [KEYS_LOCK]);
    await tx.query(
      `insert into idp_secrets (name, value) values ('signing-keys', $1::jsonb) on conflict (name) do nothing`,
      [JSON.stringify([fresh.signingKey])],
    );
    await tx.query(
      `insert into idp_secrets (name, value) values ('cookie-keys', $1::jsonb) on conflict (name) do nothing`,
      [JSON.stringify([fresh.cookieKey])],
    );
  });
  const created = await read();
  if (!created) throw new Error('identity provider keys could not be created');
  return created;
}

export function toPublicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as JWK;
}

/** The provider's public signing keys (what /protocol/openid-connect/certs serves), for local token checks. */
export async function getPublicJwks(db: Db): Promise<{ keys: JWK[] }> {
  const { signingKeys } = await loadSecrets(db);
  return { keys: signingKeys.map(toPublicJwk) };
}
