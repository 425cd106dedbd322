import Type from 'typebox';
import { DateTime, Entity, ErrorBody } from './common.ts';
import { defineRoute } from './route.ts';

// Shop configuration: an account's one online shop. The server keeps the shop's address, its API key sealed (only
// the last four characters are ever answered), what to synchronise and how often, the outcome of the last
// synchronisation and the records it brought in.

export const SHOP_URL_MAX = 500;
export const SHOP_API_KEY_MIN = 8;
export const SHOP_API_KEY_MAX = 500;
/** How many characters of the stored key the page may show ("••••1234"). */
export const SHOP_KEY_SHOWN = 4;
/** A shop that has not answered within this time counts as timed out. */
export const SHOP_TIMEOUT_MS = 5000;

/** What a synchronisation brings in, one table of records keyed by kind and the shop's id. */
export const SHOP_RECORD_KINDS = ['PRODUCTS', 'ORDERS', 'CUSTOMERS'] as const;
export type ShopRecordKind = (typeof SHOP_RECORD_KINDS)[number];

/** How often the shop is synchronised on its own; MANUAL: only with "sync now". */
export const SHOP_SYNC_INTERVALS = ['MINUTES_15', 'HOURS_1', 'HOURS_6', 'HOURS_24', 'MANUAL'] as const;
export type ShopSyncInterval = (typeof SHOP_SYNC_INTERVALS)[number];
export const SHOP_SYNC_INTERVAL_MINUTES: Record<ShopSyncInterval, number | null> = {
  MINUTES_15: 15,
  HOURS_1: 60,
  HOURS_6: 360,
  HOURS_24: 1440,
  MANUAL: null,
};

/** The outcome of talking to the shop: OK, or why not (each has a localised text in the web). */
export const SHOP_RESULTS = [
  'OK',
  /** The shop refused the key (401 or 403). */
  'WRONG_KEY',
  /** No connection: the name does not resolve, the connection is refused, TLS fails. */
  'UNREACHABLE',
  /** No answer within SHOP_TIMEOUT_MS. */
  'TIMEOUT',
  /** Something answered, but not as a shop's API does. */
  'NOT_A_SHOP',
  /** The address is one the server may not reach (private, loopback, link-local, metadata). */
  'ADDRESS_REFUSED',
  /** The stored key can no longer be opened (the server's keys changed without it): enter the key again. */
  'KEY_UNREADABLE',
] as const;
export type ShopResult = (typeof SHOP_RESULTS)[number];
export type ShopProblem = Exclude<ShopResult, 'OK'>;
export const SHOP_PROBLEMS = SHOP_RESULTS.filter((r): r is ShopProblem => r !== 'OK');

/** QUEUED: asked for, not yet started; RUNNING; then OK or FAILED. */
export const SHOP_SYNC_STATUSES = ['QUEUED', 'RUNNING', 'OK', 'FAILED'] as const;
export type ShopSyncStatus = (typeof SHOP_SYNC_STATUSES)[number];

/** Field problems of the shop form; the web's form rules use the same message keys. */
export const SHOP_URL_PROBLEMS = {
  required: 'peppershop.errors.urlRequired',
  invalid: 'peppershop.errors.urlInvalid',
  https: 'peppershop.errors.urlHttps',
  address: 'peppershop.errors.urlAddress',
} as const;
export const SHOP_KEY_PROBLEMS = {
  required: 'peppershop.errors.keyRequired',
  length: 'peppershop.errors.keyLength',
  newAddress: 'peppershop.errors.keyNewAddress',
} as const;

interface ParsedUrl {
  origin: string;
  protocol: string;
  hostname: string;
  username: string;
  password: string;
  search: string;
  hash: string;
}
// The contract is compiled without the DOM library; both browsers and Node have the WHATWG URL class.
const WhatwgUrl = (globalThis as unknown as { URL: new (text: string) => ParsedUrl }).URL;

/**
 * The form's rule for the shop's address: a full http(s) URL without credentials, query or fragment, https unless
 * local shops are allowed (demo mode). Whether the host is an address the server may reach is the server's check.
 */
export function shopUrlProblem(value: string, allowHttp: boolean): string | null {
  const text = value.trim();
  if (text === '') return SHOP_URL_PROBLEMS.required;
  if (text.length > SHOP_URL_MAX) return SHOP_URL_PROBLEMS.invalid;
  let url: ParsedUrl;
  try {
    url = new WhatwgUrl(text);
  } catch {
    return SHOP_URL_PROBLEMS.invalid;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return SHOP_URL_PROBLEMS.invalid;
  if (!url.hostname || url.username || url.password || url.search || url.hash)
    return SHOP_URL_PROBLEMS.invalid;
  if (url.protocol === 'http:' && !allowHttp) return SHOP_URL_PROBLEMS.https;
  return null;
}

/**
 * True when `next` points at another host than `stored` (scheme, host or port). The stored key is never sent to
 * another host: it would reach whoever runs it, though the key is never shown again. A new host needs the key
 * entered again.
 */
export function isOtherShopHost(next: string, stored: string): boolean {
  try {
    return new WhatwgUrl(next.trim()).origin !== new WhatwgUrl(stored).origin;
  } catch {
    return false;
  }
}

/** The rule for a newly entered API key (empty: keep the stored one). */
export function shopKeyProblem(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  return text.length < SHOP_API_KEY_MIN || text.length > SHOP_API_KEY_MAX ? SHOP_KEY_PROBLEMS.length : null;
}

const Counts = Type.Object({
  products: Type.Integer({ minimum: 0 }),
  orders: Type.Integer({ minimum: 0 }),
  customers: Type.Integer({ minimum: 0 }),
});

export const ShopSync = Type.Object({
  status: Type.Enum(SHOP_SYNC_STATUSES),
  /** When it was asked for (QUEUED) or began. */
  startedAt: DateTime,
  finishedAt: Type.Union([DateTime, Type.Null()]),
  /** Why it failed; null unless FAILED. */
  error: Type.Union([Type.Enum(SHOP_PROBLEMS), Type.Null()]),
  /** Records the run read from the shop, per kind. */
  counts: Counts,
});
export type ShopSync = Type.Static<typeof ShopSync>;

export const ShopConnection = Type.Object({
  url: Type.String(),
  /** The last SHOP_KEY_SHOWN characters of the stored key; the key itself is never answered. */
  apiKeyLastFour: Type.String(),
  syncProducts: Type.Boolean(),
  syncOrders: Type.Boolean(),
  syncCustomers: Type.Boolean(),
  interval: Type.Enum(SHOP_SYNC_INTERVALS),
  /** Off: no scheduled synchronisation (sync now still works). */
  enabled: Type.Boolean(),
  updatedAt: DateTime,
  /** When the scheduler synchronises next; null when it does not (MANUAL or disabled). */
  nextSyncAt: Type.Union([DateTime, Type.Null()]),
  lastSync: Type.Union([ShopSync, Type.Null()]),
  /** Records kept from the shop, per kind. */
  records: Counts,
});
export type ShopConnection = Type.Static<typeof ShopConnection>;

export const ShopState = Type.Object({
  /** True in demo mode: plain http and loopback addresses are allowed (a local stand-in shop). */
  allowsLocalShops: Type.Boolean(),
  connection: Type.Union([ShopConnection, Type.Null()]),
});
export type ShopState = Type.Static<typeof ShopState>;

export const SaveShopBody = Type.Object(
  {
    url: Type.String({ maxLength: SHOP_URL_MAX }),
    /** Empty: keep the stored key (required when none is stored). */
    apiKey: Type.String({ maxLength: SHOP_API_KEY_MAX }),
    syncProducts: Type.Boolean(),
    syncOrders: Type.Boolean(),
    syncCustomers: Type.Boolean(),
    interval: Type.Enum(SHOP_SYNC_INTERVALS),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SaveShopBody = Type.Static<typeof SaveShopBody>;

/** Test the entered address and key; an empty one stands for the stored one. */
export const TestShopBody = Type.Object(
  {
    url: Type.String({ maxLength: SHOP_URL_MAX }),
    apiKey: Type.String({ maxLength: SHOP_API_KEY_MAX }),
  },
  { additionalProperties: false },
);
export type TestShopBody = Type.Static<typeof TestShopBody>;

export const ShopTestResult = Type.Object({
  result: Type.Enum(SHOP_RESULTS),
  /** The shop's name as it answers it; null unless OK. */
  shopName: Type.Union([Type.String(), Type.Null()]),
});
export type ShopTestResult = Type.Static<typeof ShopTestResult>;

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const ADMIN = { min: 'ADMIN', denied: 'The shop configuration needs the ADMIN role' } as const;

export const peppershopRoutes = {
  getShopState: defineRoute({
    method: 'GET',
    path: '/shop/v1/connection',
    summary: "The account's shop connection (the key only as its last four characters) and its last sync",
    tags: ['shop'],
    accountScoped: true,
    accountRole: ADMIN,
    response: { 200: Entity(ShopState), ...errors },
  }),
  saveShopConnection: defineRoute({
    method: 'PUT',
    path: '/shop/v1/connection',
    summary: 'Save the shop address, a new key (empty keeps the stored one) and the sync options',
    tags: ['shop'],
    accountScoped: true,
    accountRole: ADMIN,
    body: SaveShopBody,
    response: { 200: Entity(ShopState), ...errors, 422: ErrorBody },
  }),
  testShopConnection: defineRoute({
    method: 'POST',
    path: '/shop/v1/connection/test',
    summary: 'Try the entered (or stored) address and key against the shop, within 5 seconds',
    tags: ['shop'],
    accountScoped: true,
    accountRole: ADMIN,
    // Changes nothing: support tries the customer's connection while looking into a sync problem.
    supportAction: true,
    body: TestShopBody,
    response: { 200: Entity(ShopTestResult), ...errors, 409: ErrorBody, 422: ErrorBody },
  }),
  syncShopNow: defineRoute({
    method: 'POST',
    path: '/shop/v1/connection/sync',
    summary: 'Queue a synchronisation of the shop now (once: a queued or running one is not doubled)',
    tags: ['shop'],
    accountScoped: true,
    accountRole: ADMIN,
    response: { 202: Entity(ShopState), ...errors, 409: ErrorBody },
  }),
  disconnectShop: defineRoute({
    method: 'DELETE',
    path: '/shop/v1/connection',
    summary: 'Delete the shop connection, its key and every record synchronised from it',
    tags: ['shop'],
    accountScoped: true,
    accountRole: ADMIN,
    response: { 204: Type.Null(), ...errors },
  }),
};
