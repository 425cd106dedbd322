import {
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  formatUid,
  isEmailAddress,
  isKnownCountry,
  isPhoneNumber,
  isPostcode,
  isVatNumber,
  isWebAddress,
  normalizeVatNumber,
  uidProblem,
  type CompanyLogo,
  type CompanyProfile,
  type UpdateCompanyBody,
  type UploadLogoBody,
} from '@portal/contract';
import { assertNameFree, lockUser } from '../../access/accounts.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { UploadRefused, checkUpload, type FileStore, type StoredFile } from '../../files/files.ts';
import { HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { iso } from '../../db/iso.ts';

const LOGO_PURPOSE = 'company-logo';

interface ProfileRow {
  name: string;
  country: string;
  street: string | null;
  postcode: string | null;
  city: string | null;
  uid: string | null;
  vat_number: string | null;
  billing_email: string | null;
  phone: string | null;
  website: string | null;
  updated_at: Date | null;
  logo_uuid: string | null;
  logo_type: CompanyLogo['contentType'] | null;
  logo_size: number | null;
  logo_name: string | null;
  logo_at: Date | null;
}

/** The account's name and country with its profile (none yet: empty), read in one query. */
async function readProfile(q: Queryable, accountUuid: string, lock = false): Promise<ProfileRow> {
  const { rows } = await q.query<ProfileRow>(
    `select a.name, a.country, p.street, p.postcode, p.city, p.uid, p.vat_number, p.billing_email, p.phone,
            p.website, p.updated_at, f.uuid as logo_uuid, f.content_type as logo_type, f.size as logo_size,
            f.file_name as logo_name, f.created_at as logo_at
       from accounts a
       left join company_profiles p on p.account_uuid = a.uuid
       left join files f on f.uuid = p.logo_file_uuid
      where a.uuid = $1${lock ? ' for update of a' : ''}`,
    [accountUuid],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

function toProfile(row: ProfileRow): CompanyProfile {
  return {
    ...fieldsOf(row),
    logo:
      row.logo_uuid && row.logo_type
        ? {
            contentType: row.logo_type,
            size: row.logo_size ?? 0,
            fileName: row.logo_name ?? '',
            updatedAt: iso(row.logo_at!),
          }
        : null,
    updatedAt: row.updated_at ? iso(row.updated_at) : null,
  };
}

export async function getProfile(db: Db, access: AccountAccess): Promise<CompanyProfile> {
  return toProfile(await readProfile(db, access.accountUuid));
}

/** The profile's fields as the change stores them (null: none), for the audit entry's before and after. */
type Fields = {
  legalName: string;
  street: string | null;
  postcode: string | null;
  city: string | null;
  country: string;
  uid: string | null;
  vatNumber: string | null;
  billingEmail: string | null;
  phone: string | null;
  website: string | null;
};

const blankToNull = (value: string | null) => {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
};

/**
 * The rules of the form, on the server: every field is judged and all problems are reported at once (422, one
 * message key per field, the same keys the web form's rules use).
 */
function checkFields(body: UpdateCompanyBody): Fields {
  const problems: Record<string, string> = {};
  const fields: Fields = {
    legalName: body.legalName.trim(),
    street: blankToNull(body.street),
    postcode: blankToNull(body.postcode),
    city: blankToNull(body.city),
    country: body.country,
    uid: blankToNull(body.uid),
    vatNumber: blankToNull(body.vatNumber),
    billingEmail: blankToNull(body.billingEmail),
    phone: blankToNull(body.phone),
    website: blankToNull(body.website),
  };
  for (const key of ['legalName', 'street', 'postcode', 'city'] as const) {
    if (!fields[key]) problems[key] = 'required';
  }
  if (!isKnownCountry(fields.country)) problems.country = 'pattern';
  if (fields.postcode && !problems.country && !isPostcode(fields.postcode, fields.country)) {
    problems.postcode = 'postcode';
  }
  const swiss = fields.country === 'CH';
  if (fields.uid) {
    const problem = swiss ? uidProblem(fields.uid) : 'uidOnlySwiss';
    if (problem) problems.uid = problem;
    else fields.uid = formatUid(fields.uid);
  }
  if (fields.vatNumber) {
    if (swiss) problems.vatNumber = 'vatNumberNotSwiss';
    else if (!isVatNumber(fields.vatNumber, fields.country)) problems.vatNumber = 'vatNumber';
    else fields.vatNumber = normalizeVatNumber(fields.vatNumber);
  }
  if (fields.billingEmail && !isEmailAddress(fields.billingEmail.trim())) problems.billingEmail = 'email';
  if (fields.phone && !isPhoneNumber(fields.phone)) problems.phone = 'phone';
  if (fields.website && !isWebAddress(fields.website)) problems.website = 'url';
  const names = Object.keys(problems);
  if (names.length) {
    throw new HttpError(422, 'VALIDATION_FAILED', `Invalid company profile: ${names.join(', ')}`, problems);
  }
  return fields;
}

function fieldsOf(row: ProfileRow): Fields {
  return {
    legalName: row.name,
    street: row.street,
    postcode: row.postcode,
    city: row.city,
    country: row.country,
    uid: row.uid,
    vatNumber: row.vat_number,
    billingEmail: row.billing_email,
    phone: row.phone,
    website: row.website,
  };
}

/**
 * Replaces the profile. Legal name and country are the account's own (a new name must be free among the acting
 * user's accounts, as when the account is renamed elsewhere); the rest is the profile row. One audit entry holds
 * the changed fields before and after; an unchanged profile writes nothing.
 */
export async function updateProfile(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  body: UpdateCompanyBody,
): Promise<CompanyProfile> {
  const next = checkFields(body);
  const { accountUuid } = access;
  return db.transaction(async (tx) => {
    await lockUser(tx, user.uuid);
    const current = await readProfile(tx, accountUuid, true);
    const previous = fieldsOf(current);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of Object.keys(next) as (keyof Fields)[]) {
      if (previous[key] !== next[key]) {
        before[key] = previous[key];
        after[key] = next[key];
      }
    }
    if (!Object.keys(after).length) return toProfile(current);

    if (next.legalName !== previous.legalName) {
      await assertNameFree(tx, user.uuid, next.legalName, accountUuid, 'legalName');
    }
    if (next.legalName !== previous.legalName || next.country !== previous.country) {
      await tx.query('update accounts set name = $2, country = $3, updated_at = now() where uuid = $1', [
        accountUuid,
        next.legalName,
        next.country,
      ]);
    }
    await tx.query(
      `insert into company_profiles (account_uuid, street, postcode, city, uid, vat_number, billing_email, phone, website)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (account_uuid) do update set street = $2, postcode = $3, city = $4, uid = $5, vat_number = $6,
         billing_email = $7, phone = $8, website = $9, updated_at = now()`,
      [
        accountUuid,
        next.street,
        next.postcode,
        next.city,
        next.uid,
        next.vatNumber,
        next.billingEmail,
        next.phone,
        next.website,
      ],
    );
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: 'company.update',
      target: `account:${accountUuid}`,
      before,
      after,
    });
    return toProfile(await readProfile(tx, accountUuid));
  });
}

const logoSummary = (row: ProfileRow) =>
  row.logo_uuid ? { fileName: row.logo_name, contentType: row.logo_type, size: row.logo_size } : null;

/** Decodes the upload; base64 that does not round-trip is no file at all. */
function decode(content: string): Buffer {
  const bytes = Buffer.from(content, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== content.replace(/\s/g, '').replace(/=+$/, '')) {
    throw invalidField('logo', 'logoType');
  }
  return bytes;
}

const LOGO_PROBLEMS = { fileTooLarge: 'logoTooLarge', fileType: 'logoType', fileEmpty: 'logoEmpty' } as const;

/**
 * Uploads or replaces the logo: PNG, JPEG or SVG up to 1 MB, the type read from the content (an SVG is sanitised
 * first); the old file is deleted with the change. The audit entry names both files.
 */
export async function uploadLogo(
  db: Db,
  files: FileStore,
  user: PortalUser,
  access: AccountAccess,
  body: UploadLogoBody,
): Promise<CompanyProfile> {
  const { accountUuid } = access;
  let upload;
  try {
    upload = await checkUpload(decode(body.content), body.fileName, {
      types: LOGO_TYPES,
      maxBytes: LOGO_MAX_BYTES,
    });
  } catch (error) {
    if (error instanceof UploadRefused) throw invalidField('logo', LOGO_PROBLEMS[error.problem]);
    throw error;
  }
  let cleanup: (() => Promise<void>) | null = null;
  const profile = await db.transaction(async (tx) => {
    const current = await readProfile(tx, accountUuid, true);
    const stored: StoredFile = await files.put(tx, {
      ...upload,
      accountUuid,
      purpose: LOGO_PURPOSE,
      createdBy: user.uuid,
    });
    await tx.query(
      `insert into company_profiles (account_uuid, logo_file_uuid) values ($1, $2)
       on conflict (account_uuid) do update set logo_file_uuid = $2, updated_at = now()`,
      [accountUuid, stored.uuid],
    );
    if (current.logo_uuid) cleanup = await files.remove(tx, accountUuid, current.logo_uuid);
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: 'company.logo.upload',
      target: `file:${stored.uuid}`,
      before: { logo: logoSummary(current) },
      after: { logo: { fileName: stored.fileName, contentType: stored.contentType, size: stored.size } },
    });
    return toProfile(await readProfile(tx, accountUuid));
  });
  await (cleanup as (() => Promise<void>) | null)?.();
  return profile;
}

/** Removes the logo (nothing to remove: the profile as it is, no audit entry). */
export async function removeLogo(
  db: Db,
  files: FileStore,
  user: PortalUser,
  access: AccountAccess,
): Promise<CompanyProfile> {
  const { accountUuid } = access;
  let cleanup: (() => Promise<void>) | null = null;
  const profile = await db.transaction(async (tx) => {
    const current = await readProfile(tx, accountUuid, true);
    if (!current.logo_uuid) return toProfile(current);
    await tx.query(
      'update company_profiles set logo_file_uuid = null, updated_at = now() where account_uuid = $1',
      [accountUuid],
    );
    cleanup = await files.remove(tx, accountUuid, current.logo_uuid);
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: 'company.logo.remove',
      target: `file:${current.logo_uuid}`,
      before: { logo: logoSummary(current) },
      after: { logo: null },
    });
    return toProfile(await readProfile(tx, accountUuid));
  });
  await (cleanup as (() => Promise<void>) | null)?.();
  return profile;
}

/** The logo file of the account, for any member; 404 when there is none. */
export async function readLogo(db: Db, files: FileStore, access: AccountAccess) {
  const { rows } = await db.query<{ logo_file_uuid: string | null }>(
    'select logo_file_uuid from company_profiles where account_uuid = $1',
    [access.accountUuid],
  );
  const uuid = rows[0]?.logo_file_uuid;
  const found = uuid ? await files.read(db, access.accountUuid, uuid) : null;
  if (!found) throw notFound('This account has no logo');
  return found;
}
