import Type from 'typebox';
import { DateTime, EMAIL_MAX, Entity, ErrorBody, List, Uuid, PageNumber } from './common.ts';
import { ACCOUNT_NAME_MAX, COUNTRY_CODES, CountryCode } from './accounts.ts';
import { defineRoute } from './route.ts';

// The company profile of an account: its legal name and country are the account's own name and country (one
// value, shown everywhere); address, tax number, contact data and logo belong to the profile.

export const STREET_MAX = 120;
export const CITY_MAX = 80;
export const WEBSITE_MAX = 200;
export const PHONE_MAX = 30;
export const TAX_NUMBER_MAX = 30;
export const FILE_NAME_MAX = 255;

/** Largest logo file, in bytes (1 MB). */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** The logo's types, detected from the file's content (never its name). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

// --- Swiss company identification number (UID) --------------------------------------------------------------

const UID_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4];

/**
 * A Swiss UID in its written form CHE-123.456.789 (the separators may be left out or be spaces; "CHE" in any
 * case), as its nine digits, or null when the text does not have that shape.
 */
export function uidDigits(value: string): string | null {
  const match = /^CHE[-\s]?(\d{3})[.\s]?(\d{3})[.\s]?(\d{3})$/i.exec(value.trim());
  return match ? match.slice(1).join('') : null;
}

/**
 * The check digit of a UID is the last of its nine digits: 11 minus the weighted sum (weights 5 4 3 2 7 6 5 4)
 * of the first eight modulo 11; a result of 11 is 0, and 10 is never issued.
 */
export function uidCheckDigitOk(digits: string): boolean {
  const sum = UID_WEIGHTS.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === Number(digits[8]);
}

/** What is wrong with a UID: `uid` for the shape, `uidCheckDigit` for a wrong check digit, null when it is valid. */
export function uidProblem(value: string): 'uid' | 'uidCheckDigit' | null {
  const digits = uidDigits(value);
  if (!digits) return 'uid';
  return uidCheckDigitOk(digits) ? null : 'uidCheckDigit';
}

/** The UID as it is written: CHE-123.456.789. Call only with a valid one. */
export function formatUid(value: string): string {
  const d = uidDigits(value)!;
  return `CHE-${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
}

// --- Foreign VAT numbers -------------------------------------------------------------------------------------

/** EU member states: their VAT numbers start with the state's prefix (Greece: EL), as the VIES service uses them. */
const EU_VAT_PREFIX: Record<string, string> = {
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  CY: 'CY',
  CZ: 'CZ',
  DE: 'DE',
  DK: 'DK',
  EE: 'EE',
  ES: 'ES',
  FI: 'FI',
  FR: 'FR',
  GR: 'EL',
  HR: 'HR',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LT: 'LT',
  LU: 'LU',
  LV: 'LV',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SE: 'SE',
  SI: 'SI',
  SK: 'SK',
};

/** A VAT number without spaces, dots and hyphens, in capitals (DE 123 456 789 → DE123456789). */
export function normalizeVatNumber(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase();
}

/**
 * A VAT number of a company outside Switzerland: in an EU state, the state's prefix and 2 to 12 letters or digits
 * (the VIES format); elsewhere 4 to 20 letters or digits. Spaces, dots and hyphens do not count.
 */
export function isVatNumber(value: string, country: string): boolean {
  const vat = normalizeVatNumber(value);
  const prefix = EU_VAT_PREFIX[country];
  if (prefix) return vat.startsWith(prefix) && /^[A-Z0-9+*]{2,12}$/.test(vat.slice(prefix.length));
  return /^[A-Z0-9]{4,20}$/.test(vat);
}

// --- Address and contact -------------------------------------------------------------------------------------

/** Postcodes by country where the format is fixed; elsewhere 2 to 10 letters, digits, spaces or hyphens. */
const POSTCODE: Record<string, RegExp> = {
  CH: /^[1-9]\d{3}$/,
  LI: /^94\d{2}$/,
  AT: /^[1-9]\d{3}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  IT: /^\d{5}$/,
};

export function isPostcode(value: string, country: string): boolean {
  const text = value.trim();
  return (POSTCODE[country] ?? /^[A-Za-z0-9][A-Za-z0-9 -]{0,8}[A-Za-z0-9]$/).test(text);
}

/** A phone number as people write it: an optional +, then digits with spaces, brackets, dots, slashes or hyphens; 6 to 15 digits. */
export function isPhoneNumber(value: string): boolean {
  const text = value.trim();
  if (!/^\+?[\d\s()./-]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 15;
}

/** A web address: http or https with a host ("javascript:" parses as a URL but is no place to send anyone). */
// The contract is compiled without the DOM library; both browsers and Node have the WHATWG URL class.
const WhatwgUrl = (
  globalThis as unknown as { URL: new (text: string) => { protocol: string; hostname: string } }
).URL;

export function isWebAddress(value: string): boolean {
  try {
    const url = new WhatwgUrl(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isKnownCountry(code: string): boolean {
  return COUNTRY_CODES.includes(code);
}

// --- Schemas and routes --------------------------------------------------------------------------------------

const Optional = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const CompanyLogo = Type.Object({
  contentType: Type.Enum(LOGO_TYPES),
  size: Type.Integer(),
  fileName: Type.String(),
  updatedAt: DateTime,
});
export type CompanyLogo = Type.Static<typeof CompanyLogo>;

export const CompanyProfile = Type.Object({
  /** The account's name. */
  legalName: Type.String(),
  street: Type.Union([Type.String(), Type.Null()]),
  postcode: Type.Union([Type.String(), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  /** The account's country. */
  country: CountryCode,
  /** Swiss companies only: CHE-123.456.789. */
  uid: Type.Union([Type.String(), Type.Null()]),
  /** Companies outside Switzerland only. */
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  billingEmail: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  website: Type.Union([Type.String(), Type.Null()]),
  logo: Type.Union([CompanyLogo, Type.Null()]),
  /** Last change of the profile; null while nothing but name and country was ever set. */
  updatedAt: Type.Union([DateTime, Type.Null()]),
});
export type CompanyProfile = Type.Static<typeof CompanyProfile>;

/**
 * The whole profile but the logo (PUT replaces it). Empty texts and null both mean "none" for the optional
 * fields; the server trims every text and writes the UID as CHE-123.456.789.
 */
export const UpdateCompanyBody = Type.Object(
  {
    legalName: Type.String({ maxLength: ACCOUNT_NAME_MAX }),
    street: Type.String({ maxLength: STREET_MAX }),
    postcode: Type.String({ maxLength: 10 }),
    city: Type.String({ maxLength: CITY_MAX }),
    country: CountryCode,
    uid: Optional(TAX_NUMBER_MAX),
    vatNumber: Optional(TAX_NUMBER_MAX),
    billingEmail: Optional(EMAIL_MAX),
    phone: Optional(PHONE_MAX),
    website: Optional(WEBSITE_MAX),
  },
  { additionalProperties: false },
);
export type UpdateCompanyBody = Type.Static<typeof UpdateCompanyBody>;

/** Base64 text of a file of at most `maxBytes` bytes, with room for a little more so the server can name the limit. */
export const base64MaxLength = (maxBytes: number) => Math.ceil((maxBytes * 1.1) / 3) * 4;

/** An uploaded file in a JSON body: its name and its bytes in base64 (its type is read from the content). */
export function FileUpload(maxBytes: number) {
  return Type.Object(
    {
      /** The chosen file's name, kept for downloads; its type is read from the content. */
      fileName: Type.String({ minLength: 1, maxLength: FILE_NAME_MAX }),
      /** The file, base64-encoded. */
      content: Type.String({ minLength: 1, maxLength: base64MaxLength(maxBytes), contentEncoding: 'base64' }),
    },
    { additionalProperties: false },
  );
}

export const UploadLogoBody = FileUpload(LOGO_MAX_BYTES);
export type UploadLogoBody = Type.Static<typeof UploadLogoBody>;

/** Bytes of a file (served with its own Content-Type). */
export const FileBytes = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' });

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const ADMIN = { min: 'ADMIN', denied: 'Changing the company profile needs the ADMIN role' } as const;

// --- Two-factor rule of the account ---------------------------------------------------------------------------

/** Grace periods the owner may choose, in days (0: the rule applies at once). */
export const TWO_FACTOR_GRACE_DAYS = [0, 3, 7, 14, 30] as const;
export const TWO_FACTOR_GRACE_DEFAULT = 7;
/** Members without a second factor per page of the preview: the default, and the most the server answers. */
export const TWO_FACTOR_PREVIEW_PAGE_SIZE = 20;
export const TWO_FACTOR_PREVIEW_PAGE_SIZE_MAX = 100;

/**
 * The account's rule that members must use a second factor. With the embedded sign-in service the portal knows
 * who has one (`membersWithout`); with an external Keycloak it cannot tell in advance (null) and checks each
 * sign-in's token (`amr`/`acr`) instead.
 */
export const TwoFactorPolicy = Type.Object({
  enabled: Type.Boolean(),
  /** When the owner switched it on, and who (null while off). */
  enabledAt: Type.Union([DateTime, Type.Null()]),
  enabledBy: Type.Union([Type.Object({ name: Type.String(), email: Type.String() }), Type.Null()]),
  graceDays: Type.Integer({ minimum: 0 }),
  /** Until when members without a second factor are only reminded; after it the account refuses them. */
  graceUntil: Type.Union([DateTime, Type.Null()]),
  /** `embedded`: enrolment is known; `external`: the token at sign-in decides. */
  provider: Type.Enum(['embedded', 'external']),
  /** Accepted members without a second factor (embedded only; null with an external Keycloak). */
  membersWithout: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type TwoFactorPolicy = Type.Static<typeof TwoFactorPolicy>;

export const UpdateTwoFactorPolicyBody = Type.Object(
  {
    enabled: Type.Boolean(),
    /** One of TWO_FACTOR_GRACE_DAYS; ignored when switching off. */
    graceDays: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(3), Type.Literal(7), Type.Literal(14), Type.Literal(30)]),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTwoFactorPolicyBody = Type.Static<typeof UpdateTwoFactorPolicyBody>;

/** A member the rule would remind: no second factor set up yet. */
export const MemberWithoutSecondFactor = Type.Object({
  userUuid: Uuid,
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
});
export type MemberWithoutSecondFactor = Type.Static<typeof MemberWithoutSecondFactor>;

export const TwoFactorPreviewQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: TWO_FACTOR_PREVIEW_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type TwoFactorPreviewQuery = Type.Static<typeof TwoFactorPreviewQuery>;

export const companyRoutes = {
  getTwoFactorPolicy: defineRoute({
    method: 'GET',
    path: '/company/v1/two-factor-policy',
    summary: 'Read whether members must use two-factor authentication, with the grace period',
    tags: ['company'],
    accountScoped: true,
    accountRole: { min: 'ADMIN', denied: 'The two-factor rule needs the ADMIN role' },
    response: { 200: Entity(TwoFactorPolicy), ...errors },
  }),
  previewTwoFactorPolicy: defineRoute({
    method: 'GET',
    path: '/company/v1/two-factor-policy/members-without',
    summary:
      'Members who have no second factor yet (embedded sign-in service only; 409 with an external one)',
    tags: ['company'],
    accountScoped: true,
    accountRole: { min: 'ADMIN', denied: 'The two-factor rule needs the ADMIN role' },
    querystring: TwoFactorPreviewQuery,
    response: { 200: List(MemberWithoutSecondFactor), ...errors, 409: ErrorBody },
  }),
  updateTwoFactorPolicy: defineRoute({
    method: 'PUT',
    path: '/company/v1/two-factor-policy',
    summary: 'Switch the two-factor rule on (with a grace period) or off (owner only)',
    tags: ['company'],
    accountScoped: true,
    accountRole: { exactly: 'OWNER', denied: 'Only the owner can change the two-factor rule' },
    body: UpdateTwoFactorPolicyBody,
    response: { 200: Entity(TwoFactorPolicy), ...errors },
  }),
  getCompanyProfile: defineRoute({
    method: 'GET',
    path: '/company/v1/profile',
    summary: 'Read the company profile of the account',
    tags: ['company'],
    accountScoped: true,
    accountRole: { min: 'ADMIN', denied: 'The company profile needs the ADMIN role' },
    response: { 200: Entity(CompanyProfile), ...errors },
  }),
  updateCompanyProfile: defineRoute({
    method: 'PUT',
    path: '/company/v1/profile',
    summary: 'Replace the company profile (name, address, tax number, contact)',
    tags: ['company'],
    accountScoped: true,
    accountRole: ADMIN,
    body: UpdateCompanyBody,
    response: { 200: Entity(CompanyProfile), ...errors, 409: ErrorBody },
  }),
  uploadCompanyLogo: defineRoute({
    method: 'PUT',
    path: '/company/v1/logo',
    summary: 'Upload or replace the logo: PNG, JPEG or SVG up to 1 MB (SVG is sanitised)',
    tags: ['company'],
    accountScoped: true,
    accountRole: ADMIN,
    body: UploadLogoBody,
    response: { 200: Entity(CompanyProfile), ...errors },
  }),
  deleteCompanyLogo: defineRoute({
    method: 'DELETE',
    path: '/company/v1/logo',
    summary: 'Remove the logo',
    tags: ['company'],
    accountScoped: true,
    accountRole: ADMIN,
    response: { 200: Entity(CompanyProfile), ...errors },
  }),
  getCompanyLogo: defineRoute({
    method: 'GET',
    path: '/company/v1/logo',
    summary: 'The logo file, for every member of the account',
    tags: ['company'],
    accountScoped: true,
    accountRole: { min: 'EMPLOYEE' },
    response: { 200: FileBytes, ...errors },
  }),
};
