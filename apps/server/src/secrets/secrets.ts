import crypto from 'node:crypto';

/** One key of the secrets keyring: an id stored with every value it seals, and 32 bytes of key material. */
export interface SecretsKey {
  id: string;
  key: Buffer;
}

/** Seals values for storage and opens them again; see createSecrets. */
export interface Secrets {
  /** Id of the key new values are sealed with (the first configured one). */
  readonly currentKeyId: string;
  /** Seals `plaintext` for `purpose` (e.g. `idp_secrets:signing-keys`): only the same purpose opens it again. */
  seal(plaintext: string, purpose: string): string;
  /** Opens a sealed value; throws SecretsError when it was changed, sealed for another purpose or with an unknown key. */
  open(sealed: string, purpose: string): string;
  /** The value sealed again with the current key, or null when it is sealed with the current key already. */
  reseal(sealed: string, purpose: string): string | null;
}

export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

const VERSION = 'enc:v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** True for a value in the sealed format (`enc:v1:<key id>:<iv>:<ciphertext>:<tag>`), whatever its key. */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${VERSION}:`);
}

/**
 * Id of the development key: a published, derived key that keeps a developer's machine starting without
 * configuration. It protects nothing; production configuration refuses to run without SECRETS_KEYS.
 */
export const DEVELOPMENT_KEY_ID = 'dev-insecure';

export function developmentSecretsKey(): SecretsKey {
  const key = crypto.createHash('sha256').update('portal development secrets key (not secret)').digest();
  return { id: DEVELOPMENT_KEY_ID, key };
}

/**
 * Parses SECRETS_KEYS: comma-separated `id:base64` entries of 32-byte keys, newest first. The first seals new
 * values, all of them open values (so an old key stays listed until every value is re-sealed).
 */
export function parseSecretsKeys(raw: string): SecretsKey[] {
  const keys = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf(':');
      const id = at < 0 ? '' : entry.slice(0, at);
      if (!KEY_ID.test(id)) {
        throw new Error(
          'entries must look like <id>:<base64 of 32 random bytes> (id: letters, digits, - or _)',
        );
      }
      const key = Buffer.from(entry.slice(at + 1), 'base64');
      if (key.length !== 32)
        throw new Error(`key "${id}" must be 32 bytes, base64-encoded (got ${key.length})`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error('must hold at least one key');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('must not repeat a key id');
  return keys;
}

/**
 * AES-256-GCM with a random 96-bit nonce per value. The authenticated data binds the format version, the key id and
 * the purpose, so a sealed value copied to another row or field, or given another key id, does not open.
 */
export function createSecrets(keys: readonly SecretsKey[]): Secrets {
  const current = keys[0];
  if (!current) throw new SecretsError('no secrets key configured');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const aad = (keyId: string, purpose: string) => Buffer.from(`${VERSION}:${keyId}:${purpose}`, 'utf8');

  const seal = (plaintext: string, purpose: string) => {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(current.id, purpose));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
    return `${VERSION}:${current.id}:${parts.join(':')}`;
  };

  const parse = (sealed: string) => {
    const parts = isSealed(sealed) ? sealed.slice(VERSION.length + 1).split(':') : [];
    if (parts.length !== 4) throw new SecretsError('not a sealed value');
    const [keyId, iv, body, tag] = parts as [string, string, string, string];
    return {
      keyId,
      iv: Buffer.from(iv, 'base64url'),
      body: Buffer.from(body, 'base64url'),
      tag: Buffer.from(tag, 'base64url'),
    };
  };

  const open = (sealed: string, purpose: string) => {
    const { keyId, iv, body, tag } = parse(sealed);
    const key = byId.get(keyId);
    if (!key) {
      throw new SecretsError(
        `value sealed with key "${keyId}", which SECRETS_KEYS does not hold (keep old keys listed after the new one)`,
      );
    }
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretsError('sealed value is damaged');
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(keyId, purpose));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsError(
        `sealed value does not open for "${purpose}": changed, or sealed for another purpose`,
      );
    }
  };

  return {
    currentKeyId: current.id,
    seal,
    open,
    reseal: (sealed, purpose) =>
      parse(sealed).keyId === current.id ? null : seal(open(sealed, purpose), purpose),
  };
}
