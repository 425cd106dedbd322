import Type from 'typebox';
import {
  ACCOUNT_ROLES,
  DateTime,
  Entity,
  ErrorBody,
  hasLevel,
  List,
  Uuid,
  type AccountRole,
  PageNumber,
} from './common.ts';
import { defineRoute } from './route.ts';

// AbaClik: pairing the mobile time-tracking app's devices with an account. Every member pairs their own phone, so
// a device belongs to one person in one account. A member asks for a short activation code (shown with a QR code);
// the app exchanges it, without any portal sign-in, for a device token it then sends with each heartbeat.

/** Minutes an activation code stays usable. */
export const ABACLIK_CODE_VALID_MINUTES = 10;
/**
 * The characters of an activation code: digits and capitals without the look-alikes 0/O, 1/I/L, so a code read
 * from a screen can be typed without doubt.
 */
export const ABACLIK_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters of a code, shown in two groups of four (`XXXX-XXXX`). */
export const ABACLIK_CODE_LENGTH = 8;
/** The app's URI scheme the QR code carries: `abaclik://pair?server=<portal>&code=<code>`. */
export const ABACLIK_PAIRING_URI = 'abaclik://pair';
export const ABACLIK_DEVICE_NAME_MAX = 80;
export const ABACLIK_APP_VERSION_MAX = 40;
/** Largest page of the devices list. */
export const ABACLIK_DEVICES_PAGE_SIZE_MAX = 100;
/** Length of the window in which the pairing exchange counts attempts (per address, and failures overall). */
export const ABACLIK_EXCHANGE_WINDOW_SECONDS = 600;

/**
 * A code as typed or scanned, in the form it is compared in: upper case, without dashes and spaces; null when it
 * cannot be a code (wrong length or a character outside the alphabet).
 */
export function normalizeActivationCode(value: string): string | null {
  const code = value.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== ABACLIK_CODE_LENGTH) return null;
  return [...code].every((c) => ABACLIK_CODE_ALPHABET.includes(c)) ? code : null;
}

/** A code as people read it: `XXXX-XXXX`. */
export function formatActivationCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** ADMIN and above see every member's devices and may revoke any of them; everyone else only their own. */
export function mayManageAllAbaclikDevices(role: AccountRole | null | undefined): boolean {
  return hasLevel(ACCOUNT_ROLES, role, 'ADMIN');
}

export const ABACLIK_PLATFORMS = ['IOS', 'ANDROID'] as const;
export type AbaclikPlatform = (typeof ABACLIK_PLATFORMS)[number];
export const AbaclikPlatformSchema = Type.Enum(ABACLIK_PLATFORMS);

const AppVersion = Type.String({
  minLength: 1,
  maxLength: ABACLIK_APP_VERSION_MAX,
  pattern: '^[0-9A-Za-z.+-]+$',
  description: 'The app version, e.g. 3.4.1 or 3.4.1+512',
});

/** A paired device as the devices list shows it. The device token is never part of it. */
export const AbaclikDevice = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  platform: AbaclikPlatformSchema,
  appVersion: Type.String(),
  /** The member who paired it (the person whose time the app records). */
  person: Type.Object({ uuid: Uuid, name: Type.String(), email: Type.String() }),
  pairedAt: DateTime,
  /** The last exchange or heartbeat of the app. */
  lastSeenAt: DateTime,
  /** Whether the device is the caller's own. */
  isOwn: Type.Boolean(),
});
export type AbaclikDevice = Type.Static<typeof AbaclikDevice>;

/** `mine`: the caller's own devices (everyone); `all`: every device of the account (ADMIN and above). */
export const AbaclikDevicesQuery = Type.Object(
  {
    scope: Type.Optional(Type.Enum(['mine', 'all'] as const)),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: ABACLIK_DEVICES_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type AbaclikDevicesQuery = Type.Static<typeof AbaclikDevicesQuery>;

/** A new activation code: shown once (only its hash is kept), with the QR code the app scans. */
export const AbaclikActivationCode = Type.Object({
  uuid: Uuid,
  /** `XXXX-XXXX`. */
  code: Type.String(),
  expiresAt: DateTime,
  /** What the QR code encodes: `abaclik://pair?server=<portal address>&code=<code>`. */
  pairingUri: Type.String(),
  /** The QR code of `pairingUri` as an SVG document. */
  qrSvg: Type.String(),
});
export type AbaclikActivationCode = Type.Static<typeof AbaclikActivationCode>;

/** Where a code stands, as the pairing dialog waits for the app: open, used (with the device) or expired. */
export const AbaclikCodeStatus = Type.Object({
  uuid: Uuid,
  status: Type.Enum(['OPEN', 'USED', 'EXPIRED'] as const),
  expiresAt: DateTime,
  device: Type.Union([AbaclikDevice, Type.Null()]),
});
export type AbaclikCodeStatus = Type.Static<typeof AbaclikCodeStatus>;

export const AbaclikPairBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'The activation code, with or without dash',
    }),
    deviceName: Type.String({ minLength: 1, maxLength: ABACLIK_DEVICE_NAME_MAX }),
    platform: AbaclikPlatformSchema,
    appVersion: AppVersion,
  },
  { additionalProperties: false },
);
export type AbaclikPairBody = Type.Static<typeof AbaclikPairBody>;

/** The exchange's answer: the device token, the only time it is ever shown, and what the app displays. */
export const AbaclikPairing = Type.Object({
  /** Send as `Authorization: Bearer <token>` on every app call. Store it in the device's secure storage. */
  token: Type.String(),
  device: Type.Object({
    uuid: Uuid,
    name: Type.String(),
    platform: AbaclikPlatformSchema,
    appVersion: Type.String(),
    pairedAt: DateTime,
  }),
  account: Type.Object({ uuid: Uuid, name: Type.String() }),
  person: Type.Object({ uuid: Uuid, name: Type.String(), email: Type.String() }),
});
export type AbaclikPairing = Type.Static<typeof AbaclikPairing>;

export const AbaclikHeartbeatBody = Type.Object({ appVersion: AppVersion }, { additionalProperties: false });
export type AbaclikHeartbeatBody = Type.Static<typeof AbaclikHeartbeatBody>;

export const AbaclikHeartbeat = Type.Object({
  deviceUuid: Uuid,
  accountUuid: Uuid,
  lastSeenAt: DateTime,
});
export type AbaclikHeartbeat = Type.Static<typeof AbaclikHeartbeat>;

/** The OpenAPI security scheme of the app's calls after pairing: the device token as a bearer token. */
export const ABACLIK_DEVICE_SCHEME = 'abaclikDevice';

const UuidParam = Type.Object({ uuid: Uuid });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const MEMBER = { min: 'EMPLOYEE' } as const;

export const abaclikRoutes = {
  listAbaclikDevices: defineRoute({
    method: 'GET',
    path: '/abaclik/v1/devices',
    summary:
      "Paired AbaClik devices: the caller's own, or (ADMIN and above) every device of the account, paged",
    tags: ['abaclik'],
    accountScoped: true,
    accountRole: MEMBER,
    querystring: AbaclikDevicesQuery,
    response: { 200: List(AbaclikDevice), ...errors },
  }),
  createAbaclikActivationCode: defineRoute({
    method: 'POST',
    path: '/abaclik/v1/activation-codes',
    summary: `Issue an activation code for the caller's own phone (valid ${ABACLIK_CODE_VALID_MINUTES} minutes, single use; replaces the caller's open one)`,
    tags: ['abaclik'],
    accountScoped: true,
    accountRole: MEMBER,
    response: { 201: Entity(AbaclikActivationCode), ...errors },
  }),
  getAbaclikActivationCode: defineRoute({
    method: 'GET',
    path: '/abaclik/v1/activation-codes/{uuid}',
    summary: "Whether the caller's activation code is still open, was used (and by which device) or expired",
    tags: ['abaclik'],
    accountScoped: true,
    accountRole: MEMBER,
    params: UuidParam,
    response: { 200: Entity(AbaclikCodeStatus), ...errors },
  }),
  revokeAbaclikDevice: defineRoute({
    method: 'DELETE',
    path: '/abaclik/v1/devices/{uuid}',
    summary: 'Revoke a paired device (own devices; any device of the account for ADMIN and above)',
    tags: ['abaclik'],
    accountScoped: true,
    accountRole: MEMBER,
    params: UuidParam,
    response: { 204: Type.Null(), ...errors },
  }),
  pairAbaclikDevice: defineRoute({
    method: 'POST',
    path: '/abaclik/v1/app/pairings',
    summary: 'AbaClik app: exchange an activation code for a device token',
    description: `Called by the AbaClik app, without a portal sign-in and without the XSRF header. The code is the one
the portal shows (\`XXXX-XXXX\`, also in the QR code \`${ABACLIK_PAIRING_URI}?server=…&code=…\`); it is valid
${ABACLIK_CODE_VALID_MINUTES} minutes and dies on its first use. The answer carries the device token once: send it as
\`Authorization: Bearer <token>\` on the heartbeat. An unknown, expired or used code gets the same 401. Attempts are
limited per client address and, for failed attempts, overall (429 with \`Retry-After\` in seconds).`,
    tags: ['abaclik'],
    auth: false,
    appRoute: true,
    body: AbaclikPairBody,
    response: { 201: AbaclikPairing, 401: ErrorBody, 429: ErrorBody },
  }),
  abaclikHeartbeat: defineRoute({
    method: 'POST',
    path: '/abaclik/v1/app/heartbeat',
    summary: 'AbaClik app: report that the device is alive (updates last seen and the app version)',
    description: `Called by the paired AbaClik app with its device token (\`Authorization: Bearer <token>\`), without
the XSRF header. A revoked device, or one whose person left the account, gets 401 and must be paired again.`,
    tags: ['abaclik'],
    auth: false,
    appRoute: true,
    security: ABACLIK_DEVICE_SCHEME,
    body: AbaclikHeartbeatBody,
    response: { 200: Entity(AbaclikHeartbeat), 401: ErrorBody },
  }),
};
