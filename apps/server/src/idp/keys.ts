import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db, Queryable } from '../db/client.ts';
import { isSealed, type Secrets } from '../secrets/secrets.ts';

/** Arbitrary constant: serialises key creation and rotation when several instances run at once. */
const KEYS_LOCK = 727_010;

export interface IdpSecrets {
  /** Private signing keys, newest first (the provider signs with the first one). */
  signingKeys: JWK[];
  /** Cookie signing secrets, newest first. */
  cookieKeys: string[];
}

/** A signing key with its life: created, and (once a newer key signs) retired. Times in epoch seconds. */
interface SigningKeyEntry {
  jwk: JWK;
  createdAt: number;
  retiredAt?: number;
}

interface StoredSecrets {
  signing: SigningKeyEntry[];
  cookie: string[];
}

/** When the signing key is replaced, and how long a retired key stays published (seconds). */
export interface SigningKeyPolicy {
  rotateEvery: number;
  /** At least the longest lifetime of a token the key signed, plus the time every instance needs to notice. */
  grace: number;
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;
/** The stored rows of a realm's keys: the portal realm's have no prefix, another realm's its name (`cloud-`). */
interface KeyRows {
  signing: string;
  cookie: string;
}
const rowsOf = (realm?: string): KeyRows => {
  const prefix = realm ? `${realm}-` : '';
  return { signing: `${prefix}signing-keys`, cookie: `${prefix}cookie-keys` };
};
/** Each row is sealed for its own name: a sealed value copied to the other row does not open. */
const purpose = (name: string) => `idp_secrets:${name}`;
const epoch = (at: Date) => Math.floor(at.getTime() / 1000);

async function createSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

/** The rows as stored: sealed JSON (or, from before encryption at rest, the plain JSON value). */
async function readRows(q: Queryable, lock: boolean, names: KeyRows) {
  const { rows } = await q.query<{ name: string; value: unknown }>(
    `select name, value from idp_secrets where name in ($1, $2)${lock ? ' for update' : ''}`,
    [names.signing, names.cookie],
  );
  return new Map(rows.map((row) => [row.name, row.value]));
}

function decode(
  secrets: Secrets,
  rows: Map<string, unknown>,
  now: Date,
  names: KeyRows,
): StoredSecrets | null {
  const open = (name: string): unknown => {
    const value = rows.get(name);
    return isSealed(value) ? JSON.parse(secrets.open(value, purpose(name))) : value;
  };
  const signing = open(names.signing) as SigningKeyEntry[] | JWK[] | undefined;
  const cookie = open(names.cookie) as string[] | undefined;
  if (!signing || !cookie) return null;
  // Keys from before rotation were plain JWKs: they count as created now.
  const entries = signing.map((item) =>
    'jwk' in item ? (item as SigningKeyEntry) : { jwk: item as JWK, createdAt: epoch(now) },
  );
  return { signing: entries, cookie };
}

/** True when a row is plaintext or sealed with an older key: it is (re-)sealed with the current key. */
function needsSealing(secrets: Secrets, rows: Map<string, unknown>, names: KeyRows): boolean {
  return [names.signing, names.cookie].some((name) => {
    const value = rows.get(name);
    return value !== undefined && (!isSealed(value) || secrets.reseal(value, purpose(name)) !== null);
  });
}

async function write(q: Queryable, secrets: Secrets, stored: StoredSecrets, names: KeyRows): Promise<void> {
  for (const [name, value] of [
    [names.signing, stored.signing],
    [names.cookie, stored.cookie],
  ] as const) {
    await q.query(
      `insert into idp_secrets (name, value) values ($1, to_jsonb($2::text))
       on conflict (name) do update set value = excluded.value`,
      [name, secrets.seal(JSON.stringify(value), purpose(name))],
    );
  }
}

const toIdpSecrets = (stored: StoredSecrets): IdpSecrets => ({
  signingKeys: stored.signing.map((entry) => entry.jwk),
  cookieKeys: stored.cookie,
});

/**
 * Reads, under the keys lock, the stored secrets, lets `change` update them and writes them back sealed with the
 * current secrets key when anything changed (or a row was plaintext or sealed with an older key).
 */
async function update(
  db: Db,
  secrets: Secrets,
  now: Date,
  change: (stored: StoredSecrets | null) => Promise<StoredSecrets | null>,
  names = rowsOf(),
): Promise<StoredSecrets> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [KEYS_LOCK]);
    const rows = await readRows(tx, true, names);
    const stored = decode(secrets, rows, now, names);
    const changed = await change(stored);
    const result = changed ?? stored;
    if (!result) throw new Error('identity provider keys could not be created');
    if (changed || needsSealing(secrets, rows, names)) await write(tx, secrets, result, names);
    return result;
  });
}

/** The provider's keys as stored (read only); null before the first start created them. */
export async function readSecrets(db: Db, secrets: Secrets): Promise<IdpSecrets | null> {
  const names = rowsOf();
  const stored = decode(secrets, await readRows(db, false, names), new Date(), names);
  return stored && toIdpSecrets(stored);
}

/**
 * Loads the provider's keys, creating them once; rows stored in plaintext (from before encryption at rest) or
 * sealed with an older secrets key are sealed with the current one. Another realm than the portal's (`cloud`) has
 * keys of its own, in rows of its own.
 */
export async function loadSecrets(db: Db, secrets: Secrets, realm?: string): Promise<IdpSecrets> {
  const names = rowsOf(realm);
  const rows = await readRows(db, false, names);
  const stored = decode(secrets, rows, new Date(), names);
  if (stored && !needsSealing(secrets, rows, names)) return toIdpSecrets(stored);
  const fresh = await update(
    db,
    secrets,
    new Date(),
    async (current) =>
      current
        ? null
        : {
            signing: [{ jwk: await createSigningKey(), createdAt: epoch(new Date()) }],
            cookie: [crypto.randomBytes(32).toString('base64url')],
          },
    names,
  );
  return toIdpSecrets(fresh);
}

/**
 * Rotation of the provider's signing key: when the newest key is older than `rotateEvery`, a new key signs from now
 * on and the previous one is retired; a retired key stays published for `grace` (until every token it signed has
 * expired) and then goes. Safe to run on any number of instances at once (one lock); returns what it did.
 */
export async function rotateSigningKeyIfDue(
  db: Db,
  secrets: Secrets,
  policy: SigningKeyPolicy,
  now = new Date(),
): Promise<{ rotated: boolean; removed: string[] }> {
  const at = epoch(now);
  let rotated = false;
  let removed: string[] = [];
  await update(db, secrets, now, async (stored) => {
    if (!stored) return null;
    let signing = stored.signing;
    const newest = signing[0]!;
    if (newest.createdAt + policy.rotateEvery <= at) {
      signing = [
        { jwk: await createSigningKey(), createdAt: at },
        { ...newest, retiredAt: at },
        ...signing.slice(1),
      ];
      rotated = true;
    }
    const kept = signing.filter(
      (entry) => entry.retiredAt === undefined || entry.retiredAt + policy.grace > at,
    );
    removed = signing.filter((entry) => !kept.includes(entry)).map((entry) => entry.jwk.kid!);
    return rotated || removed.length ? { ...stored, signing: kept } : null;
  });
  return { rotated, removed };
}

export function toPublicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as JWK;
}

/** The provider's public signing keys (what /protocol/openid-connect/certs serves), for local token checks. */
export async function getPublicJwks(db: Db, secrets: Secrets): Promise<{ keys: JWK[] }> {
  const { signingKeys } = await loadSecrets(db, secrets);
  return { keys: signingKeys.map(toPublicJwk) };
}
