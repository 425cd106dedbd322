import type { ParseKeys, TFunction } from 'i18next';

/**
 * The registered validation rules (`length` fails with strictLength, `max` with maxLength). Each rule names the
 * message key it fails with (in the `validation` namespace) and the interpolation values for it.
 */

export interface RuleContext {
  /** The field's visible label, used by the default message "{field} is not valid." */
  field: string;
  /** Name of the field in the form (for rules that compare fields). */
  name?: string;
  /** All current form values (for `confirmed`). */
  values?: Record<string, unknown>;
  /** Translator bound to the `validation` namespace. */
  t: TFunction<'validation'>;
}

export interface RuleDefinition {
  /** Message key in validation.json. */
  message: ParseKeys<'validation'>;
  /** True when the value passes. `args` come from the rule string ("max:120" → ["120"]) or object form. */
  validate(value: unknown, args: readonly unknown[], ctx: RuleContext): boolean;
  /** Interpolation values for the message. */
  params?(args: readonly unknown[], value: unknown): Record<string, unknown>;
  /** Rules that judge empty values themselves; every other rule passes an empty value (use `required`). */
  checksEmpty?: boolean;
  /** Keep the argument text whole instead of splitting it at commas (regular expressions). */
  rawArgs?: boolean;
}

/** Empty in the sense of `required`: nothing, false, an empty list or whitespace-only text. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}

function sizeOf(value: unknown): number {
  return Array.isArray(value) ? value.length : [...text(value)].length;
}

function toNumber(arg: unknown): number {
  const n = typeof arg === 'number' ? arg : Number(arg);
  if (!Number.isFinite(n)) throw new Error(`validation rule argument is not a number: ${String(arg)}`);
  return n;
}

function toRegExp(arg: unknown): RegExp {
  if (arg instanceof RegExp) return arg;
  const source = String(arg);
  // "/…/flags" keeps its flags; anything else is a pattern that must match the whole value.
  const literal = /^\/(.+)\/([dgimsuvy]*)$/.exec(source);
  if (literal) return new RegExp(literal[1] ?? '', literal[2]);
  return new RegExp(`^(?:${source})$`, 'u');
}

/** WHATWG's e-mail pattern (as `<input type=email>`), plus a dot in the domain: "name@host" alone is refused. */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

function isEmail(value: unknown): boolean {
  return typeof value === 'string' && EMAIL.test(value.trim());
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    // Web addresses only: "javascript:" and "mailto:" parse as URLs but are no place to send a user.
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
const INTEGER = /^[+-]?\d+$/;

export const rules: Record<string, RuleDefinition> = {
  required: {
    message: 'required',
    checksEmpty: true,
    validate: (value) => !isEmpty(value),
  },
  email: {
    message: 'email',
    validate: (value) => (Array.isArray(value) ? value.every(isEmail) : isEmail(value)),
  },
  url: {
    message: 'url',
    rawArgs: true,
    validate: (value, args) => {
      const s = text(value);
      if (!isUrl(s)) return false;
      return args[0] === undefined || toRegExp(args[0]).test(s.trim());
    },
  },
  confirmed: {
    message: 'confirmed',
    checksEmpty: true,
    validate: (value, args, ctx) => {
      const other = String(args[0] ?? `${ctx.name ?? ''}_confirmation`);
      const expected = ctx.values?.[other];
      return (isEmpty(value) && isEmpty(expected)) || value === expected;
    },
  },
  length: {
    message: 'strictLength',
    validate: (value, args) => sizeOf(value) === toNumber(args[0]),
    params: (args) => ({ length: toNumber(args[0]) }),
  },
  max: {
    message: 'maxLength',
    validate: (value, args) => sizeOf(value) <= toNumber(args[0]),
    params: (args) => ({ max: toNumber(args[0]) }),
  },
  minLength: {
    message: 'minLength',
    validate: (value, args) => sizeOf(value) >= toNumber(args[0]),
    params: (args) => ({ min: toNumber(args[0]) }),
  },
  number: {
    message: 'number',
    validate: (value) =>
      typeof value === 'number' ? Number.isFinite(value) : NUMBER.test(text(value).trim()),
  },
  integer: {
    message: 'integer',
    validate: (value) =>
      typeof value === 'number' ? Number.isInteger(value) : INTEGER.test(text(value).trim()),
  },
  capital: {
    message: 'capital',
    // Letters must be capitals; digits, spaces and punctuation are not letters and may appear.
    validate: (value) => !/\p{Ll}/u.test(text(value)),
  },
  exclude: {
    message: 'exclude',
    validate: (value, args) => !args.some((c) => text(value).includes(String(c))),
    params: (args, value) => ({ char: args.find((c) => text(value).includes(String(c))) ?? args[0] }),
  },
  notEmpty: {
    message: 'notEmpty',
    checksEmpty: true,
    validate: (value) => !isEmpty(value),
  },
  pattern: {
    message: 'pattern',
    rawArgs: true,
    validate: (value, args) =>
      Array.isArray(value)
        ? value.every((item) => toRegExp(args[0]).test(text(item)))
        : toRegExp(args[0]).test(text(value)),
  },
};

/** Adds or replaces a rule; areas with their own field rules register them here. */
export function registerRule(name: string, definition: RuleDefinition): void {
  rules[name] = definition;
}
