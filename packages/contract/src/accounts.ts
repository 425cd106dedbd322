import Type from 'typebox';
import {
  AccountRoleSchema,
  DateTime,
  Entity,
  ErrorBody,
  InvitationStatusSchema,
  LanguageSchema,
  Uuid,
  UuidParams,
} from './common.ts';
import { defineRoute } from './route.ts';

/** Version of the terms and privacy policy an owner accepts; acceptance records which one. */
export const TERMS_VERSION = '2026-01';

/** ISO 3166-1 alpha-2, upper case. */
export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/**
 * The countries an account may name (the form offers these, the API accepts only these): ISO 3166-1 alpha-2
 * codes in use, plus XK (Kosovo, widely used though user-assigned).
 */
export const COUNTRY_CODES: readonly string[] = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS XK YE YT ZA ZM ZW
`
  .trim()
  .split(/\s+/);

/** An account (company) as seen by the signed-in user. */
export const TWO_FACTOR_STATES = ['none', 'grace', 'enforced'] as const;
export type TwoFactorState = (typeof TWO_FACTOR_STATES)[number];
export const TwoFactorStateSchema = Type.Enum(TWO_FACTOR_STATES);

export const Account = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  country: CountryCode,
  preferredLanguage: LanguageSchema,
  /** The caller's role in this account; SUPPORT for staff acting on an account they do not belong to. */
  accountRole: AccountRoleSchema,
  isOwner: Type.Boolean(),
  invitationStatus: InvitationStatusSchema,
  /** Set while deletion is scheduled: the account is deleted after this instant. */
  availableUntil: Type.Union([DateTime, Type.Null()]),
  acceptedAgb: Type.Boolean(),
  acceptedPrivacyPolicy: Type.Boolean(),
  createdAt: DateTime,
  /**
   * The account's rule that members use a second factor, as it applies to the caller: `none` (no rule, or the
   * caller has a second factor), `grace` (they are reminded until `twoFactorGraceUntil`), `enforced` (the account's
   * areas answer 403 TWO_FACTOR_REQUIRED until they set one up). Absent from older servers: none.
   */
  twoFactorRequired: Type.Optional(TwoFactorStateSchema),
  twoFactorGraceUntil: Type.Optional(Type.Union([DateTime, Type.Null()])),
});
export type Account = Type.Static<typeof Account>;

/** An owner works in the account only after accepting both the terms and the privacy policy. */
export function hasAcceptedTerms(account: Pick<Account, 'acceptedAgb' | 'acceptedPrivacyPolicy'>): boolean {
  return account.acceptedAgb && account.acceptedPrivacyPolicy;
}

export const ACCOUNT_NAME_MAX = 120;

export const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: ACCOUNT_NAME_MAX }),
    country: CountryCode,
    preferredLanguage: LanguageSchema,
  },
  { additionalProperties: false },
);
export type CreateAccountBody = Type.Static<typeof CreateAccountBody>;

/**
 * Partial update. Terms can only be accepted (true), never withdrawn here; `availableUntil: null` cancels a
 * scheduled deletion. Terms and deletion are the owner's; name, country and language need ADMIN.
 */
export const UpdateAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: ACCOUNT_NAME_MAX })),
    country: Type.Optional(CountryCode),
    preferredLanguage: Type.Optional(LanguageSchema),
    acceptedAgb: Type.Optional(Type.Literal(true)),
    acceptedPrivacyPolicy: Type.Optional(Type.Literal(true)),
    availableUntil: Type.Optional(Type.Null()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAccountBody = Type.Static<typeof UpdateAccountBody>;

/** DELETE answer: the account with its deletion date, and a note for the user (English; the web localises). */
export const DeletedAccount = Type.Object({ data: Account, message: Type.String() });
export type DeletedAccount = Type.Static<typeof DeletedAccount>;

/** Days between DELETE and the actual deletion; until then the owner can cancel it. */
export const ACCOUNT_DELETION_DAYS = 30;

export const Migration = Type.Object({
  uuid: Uuid,
  accountUuid: Uuid,
  state: Type.Union([Type.Literal('REQUESTED'), Type.Literal('RUNNING'), Type.Literal('DONE')]),
  requestedAt: DateTime,
});
export type Migration = Type.Static<typeof Migration>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const AccountParams = Type.Object({ accountUuid: Uuid });

export const accountsRoutes = {
  createAccount: defineRoute({
    method: 'POST',
    path: '/accounts/v1/accounts',
    summary: 'Create an account; the creator becomes its OWNER',
    tags: ['accounts'],
    body: CreateAccountBody,
    response: { 201: Entity(Account), ...errors, 409: ErrorBody },
  }),
  getAccount: defineRoute({
    method: 'GET',
    path: '/accounts/v1/accounts/{id}',
    summary: 'Load an account the caller belongs to',
    tags: ['accounts'],
    accountParam: 'id',
    accountRole: { min: 'EMPLOYEE' },
    params: UuidParams,
    response: { 200: Entity(Account), ...errors },
  }),
  updateAccount: defineRoute({
    method: 'PATCH',
    path: '/accounts/v1/accounts/{id}',
    summary: 'Partially update an account',
    tags: ['accounts'],
    accountParam: 'id',
    // Every member may ask; which fields a role may change is decided per field (see UpdateAccountBody).
    accountRole: { min: 'EMPLOYEE' },
    params: UuidParams,
    body: UpdateAccountBody,
    response: { 200: Entity(Account), ...errors, 409: ErrorBody },
  }),
  deleteAccount: defineRoute({
    method: 'DELETE',
    path: '/accounts/v1/accounts/{id}',
    summary: 'Schedule the deletion of an account in 30 days (owner only)',
    tags: ['accounts'],
    accountParam: 'id',
    accountRole: { exactly: 'OWNER', denied: 'Only the owner can delete the account' },
    params: UuidParams,
    response: { 200: DeletedAccount, ...errors },
  }),
  beginMigration: defineRoute({
    method: 'POST',
    path: '/accounts/v1/accounts/{accountUuid}/migration/begin',
    summary: 'Request the migration of an account (owner only)',
    tags: ['accounts'],
    accountParam: 'accountUuid',
    accountRole: { exactly: 'OWNER', denied: 'Only the owner can migrate the account' },
    params: AccountParams,
    response: { 202: Entity(Migration), ...errors, 409: ErrorBody },
  }),
};
