// The billing form's own rules, registered with the form rules so fields name them in rule strings. They run the
// contract's checks, the same the server runs on the billing details.
import { isPostcode, isVatNumber, uidDigits, uidProblem } from '@portal/contract';
import { registerRule, type RuleContext } from '@/forms/index.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const countryOf = (ctx: RuleContext) =>
  text((ctx.values?.address as { country?: unknown } | undefined)?.country);

/** A Swiss UID may carry the VAT suffix (CHE-123.456.789 MWST, TVA or IVA); the rules judge the UID before it. */
const withoutSuffix = (value: unknown) => text(value).replace(/\s*(MWST|TVA|IVA)\.?$/i, '');

/** A postcode of the billing address's country (CH: 4 digits, DE: 5, …). */
registerRule('billingPostcode', {
  message: 'postcode',
  validate: (value, _args, ctx) => isPostcode(text(value), countryOf(ctx)),
});

/** For a Swiss address the number is a UID of the shape CHE-123.456.789 … */
registerRule('billingUid', {
  message: 'uid',
  validate: (value, _args, ctx) => countryOf(ctx) !== 'CH' || uidDigits(withoutSuffix(value)) !== null,
});
/** … whose last digit is the check digit of the other eight … */
registerRule('billingUidCheckDigit', {
  message: 'uidCheckDigit',
  validate: (value, _args, ctx) =>
    countryOf(ctx) !== 'CH' || uidProblem(withoutSuffix(value)) !== 'uidCheckDigit',
});
/** … and elsewhere a VAT number as the address's country writes it (in the EU with the state's prefix). */
registerRule('billingVatNumber', {
  message: 'vatNumber',
  validate: (value, _args, ctx) => countryOf(ctx) === 'CH' || isVatNumber(text(value), countryOf(ctx)),
});

/** No invoice recipient twice (letter case does not count). */
registerRule('distinctRecipient', {
  message: 'duplicate',
  validate: (value, _args, ctx) => {
    const own = text(value).trim().toLowerCase();
    const all = (ctx.values?.recipients as unknown[] | undefined) ?? [];
    const index = Number(ctx.name?.split('.').at(-1));
    return !all.slice(0, index).some((other) => text(other).trim().toLowerCase() === own);
  },
});
