import Type from 'typebox';

/** Account roles, lowest to highest. A level check passes when the required role is at or below the current one. */
export const ACCOUNT_ROLES = ['EMPLOYEE', 'ADMIN', 'DC', 'OWNER', 'SUPPORT'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** User roles, lowest to highest ({product}_ADMIN is PORTAL_ADMIN). */
export const USER_ROLES = [
  'STANDARD',
  'DC',
  'TEACHER',
  'SUPPORT',
  'SUPPORT_AGENT',
  'SUPPORT_MANAGER',
  'PORTAL_ADMIN',
] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Staff user roles may open any account by uuid, acting as account role SUPPORT; the server audits each such
 * access. They are never sent to onboarding.
 */
export const STAFF_USER_ROLES: readonly UserRole[] = [
  'SUPPORT',
  'SUPPORT_AGENT',
  'SUPPORT_MANAGER',
  'PORTAL_ADMIN',
];

/** The one staff check, used by server, web and sign-in service alike. */
export function isStaffRole(role: UserRole): boolean {
  return STAFF_USER_ROLES.includes(role);
}

export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function hasLevel<R extends string>(
  order: readonly R[],
  current: R | null | undefined,
  required: R,
): boolean {
  if (!current) return false;
  return order.indexOf(required) <= order.indexOf(current) && order.includes(current);
}

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
/** The highest page number a list's query accepts: more than any list has, and an offset SQL always takes. */
export const PAGE_MAX = 100_000;
/** A list's page number in its query (1 is the first page), with its finite maximum (decision 197). */
export const PageNumber = Type.Integer({ minimum: 1, maximum: PAGE_MAX });
// Enums (JSON Schema `enum`), not unions of mapped literals: a mapped array loses the literal types (never).
export const LanguageSchema = Type.Enum(LANGUAGES);
export const AccountRoleSchema = Type.Enum(ACCOUNT_ROLES);
export const UserRoleSchema = Type.Enum(USER_ROLES);
export const InvitationStatusSchema = Type.Enum(INVITATION_STATUSES);

/** The one error shape of the API: a message for people, a stable code, and field errors where input was refused. */
export const ErrorBody = Type.Object({
  message: Type.String(),
  code: Type.String(),
  details: Type.Optional(
    Type.Object({
      /** Field errors: field path → message key or text. */
      fields: Type.Optional(Type.Record(Type.String(), Type.String())),
    }),
  ),
});
export type ErrorBody = Type.Static<typeof ErrorBody>;

export const ListMeta = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});

export function Entity<T extends Type.TSchema>(data: T) {
  return Type.Object({ data });
}

export function List<T extends Type.TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: ListMeta });
}

export const UuidParams = Type.Object({ id: Uuid });

export const EMAIL_MAX = 254;

/**
 * WHATWG's e-mail pattern (as `<input type=email>`), plus a dot in the domain: the form's rule and the server's
 * check are this one pattern.
 */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value);
}
