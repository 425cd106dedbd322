// The company form's own rules, registered with the form rules so fields name them in rule strings
// ("uid|uidCheckDigit", "postcode"). They run the contract's checks, the same the server runs.
import { isPhoneNumber, isPostcode, isVatNumber, uidDigits, uidProblem } from '@portal/contract';
import { registerRule, type RuleContext } from '@/forms/index.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const countryOf = (ctx: RuleContext) => text(ctx.values?.country);

/** A Swiss UID has the shape CHE-123.456.789 … */
registerRule('uid', { message: 'uid', validate: (value) => uidDigits(text(value)) !== null });
/** … and its last digit is the check digit of the other eight (a UID of the wrong shape fails the rule above). */
registerRule('uidCheckDigit', {
  message: 'uidCheckDigit',
  validate: (value) => uidProblem(text(value)) !== 'uidCheckDigit',
});
/** A VAT number as the company's country writes it (in the EU with the state's prefix). */
registerRule('vatNumber', {
  message: 'vatNumber',
  validate: (value, _args, ctx) => isVatNumber(text(value), countryOf(ctx)),
});
/** A postcode of the company's country (CH: 4 digits, DE: 5, …). */
registerRule('postcode', {
  message: 'postcode',
  validate: (value, _args, ctx) => isPostcode(text(value), countryOf(ctx)),
});
registerRule('phone', { message: 'phone', validate: (value) => isPhoneNumber(text(value)) });
