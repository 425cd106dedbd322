// The billing form's own rules, registered with the form rules so fields name them in rule strings. They run the
// contract's checks, the same the server runs on the billing details.
import { isPostcode } from '@portal/contract';
import { registerRule } from '@/forms/index.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A postcode of the billing address's country (CH: 4 digits, DE: 5, …). */
registerRule('billingPostcode', {
  message: 'postcode',
  validate: (value, _args, ctx) => {
    const address = ctx.values?.address as { country?: unknown } | undefined;
    return isPostcode(text(value), text(address?.country));
  },
});
