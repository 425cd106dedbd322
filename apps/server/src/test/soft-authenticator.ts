import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * A software passkey authenticator for tests: P-256 keys from node:crypto, attestation "none", discoverable
 * credentials, a signature counter. It answers registration and sign-in options as a browser with a platform
 * authenticator would (`RegistrationResponseJSON` / `AuthenticationResponseJSON`).
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

/** Flags of the authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface CeremonyOptions {
  /** The origin the browser reports (default: the authenticator's). */
  origin?: string;
  /** Whether the person was verified (PIN, biometrics); default true. */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    o: CeremonyOptions = {},
  ): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? this.rpId),
      Buffer.from([UP | AT | (o.userVerified === false ? 0 : UV)]),
      Buffer.alloc(4), // counter 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: o.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestation = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * Signs in: with `allowCredentials` the first credential it names, else (a discoverable sign-in) the newest. The
   * counter grows by one, unless `counter` sets it (a cloned authenticator).
   */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    o: CeremonyOptions & { counter?: number } = {},
  ): AuthenticationResponseJSON {
    const allowed = options.allowCredentials ?? [];
    const credential =
      allowed.length > 0
        ? this.credentials.find((c) => allowed.some((a) => a.id === b64url(c.id)))
        : this.credentials.at(-1);
    if (!credential) throw new Error('no credential for these options');
    credential.counter = o.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([
      sha256(options.rpId ?? this.rpId),
      Buffer.from([UP | (o.userVerified === false ? 0 : UV)]),
      counter,
    ]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: o.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
