import { Errors } from 'typebox/schema';
import type { TSchema } from 'typebox';
import { isEmpty, rules as registry, type RuleContext } from './rules.ts';

/**
 * A function rule: `true` passes; a string is the message — best a `later(key)` message (i18n/later.ts), which the
 * field translates when shown, so it follows a change of language; `false` uses the default one.
 */
export type RuleFunction = (value: unknown, ctx: RuleContext) => boolean | string;

/** Object form: rule name → `true` (no argument), an argument, a list of arguments, or `false` (rule off). */
export type RuleObject = Record<string, boolean | string | number | RegExp | readonly unknown[]>;

/**
 * Rules in any of the accepted forms: "required|email|max:120", `{ required: true, max: 120 }`, a function, a
 * TypeBox / JSON schema, or a list mixing these (checked in order).
 */
export type Rules = string | RuleObject | RuleFunction | TSchema | readonly Rules[];

type Step =
  | { kind: 'rule'; name: string; args: readonly unknown[] }
  | { kind: 'function'; fn: RuleFunction }
  | { kind: 'schema'; schema: TSchema };

const SCHEMA_KEYS = ['~kind', 'type', 'anyOf', 'allOf', 'oneOf', 'enum', 'const', '$ref', 'not'];

/** TypeBox schemas carry `~kind`; plain JSON schemas are told apart by keywords no rule is named after. */
export function isSchema(value: unknown): value is TSchema {
  return typeof value === 'object' && value !== null && SCHEMA_KEYS.some((k) => k in value);
}

function parseString(source: string): Step[] {
  return source
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      const name = colon < 0 ? part : part.slice(0, colon);
      const raw = colon < 0 ? undefined : part.slice(colon + 1);
      const definition = registry[name];
      const args = raw === undefined ? [] : definition?.rawArgs ? [raw] : raw.split(',');
      return { kind: 'rule', name, args } as const;
    });
}

function parseObject(source: RuleObject): Step[] {
  return Object.entries(source)
    .filter(([, arg]) => arg !== false)
    .map(([name, arg]) => ({
      kind: 'rule',
      name,
      args: arg === true ? [] : Array.isArray(arg) ? arg : [arg],
    }));
}

function steps(source: Rules | undefined): Step[] {
  if (source === undefined) return [];
  if (typeof source === 'string') return parseString(source);
  if (typeof source === 'function') return [{ kind: 'function', fn: source as RuleFunction }];
  if (Array.isArray(source)) return source.flatMap((item: Rules) => steps(item));
  if (isSchema(source)) return [{ kind: 'schema', schema: source }];
  return parseObject(source as RuleObject);
}

/** Maps the first schema error onto the rule messages, so schema and rule failures read alike. */
function schemaMessage(schema: TSchema, value: unknown, ctx: RuleContext): true | string {
  // An empty optional field is not checked by the schema: "required" is the rule for that.
  if (isEmpty(value) && value !== false) {
    return (schema as { minLength?: number }).minLength ? ctx.t('required') : true;
  }
  const [ok, errors] = Errors(schema, value);
  const first = errors[0];
  if (ok || !first) return true;
  const params = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'maxLength':
      return ctx.t('maxLength', { max: params.limit });
    case 'minLength':
      return ctx.t('minLength', { min: params.limit });
    case 'pattern':
      return ctx.t('pattern');
    case 'format':
      if (params.format === 'email' || params.format === 'idn-email') return ctx.t('email');
      if (params.format === 'uri' || params.format === 'url') return ctx.t('url');
      break;
    case 'type':
      if (params.type === 'integer') return ctx.t('integer');
      if (params.type === 'number') return ctx.t('number');
      break;
    case 'minItems':
      return ctx.t('notEmpty');
  }
  return ctx.t('default', { field: ctx.field });
}

/**
 * Checks `value` against `rules` in order and stops at the first failure.
 * Returns `true` or the localised message of the failing rule.
 */
export function validate(value: unknown, rules: Rules | undefined, ctx: RuleContext): true | string {
  for (const step of steps(rules)) {
    let result: true | string;
    if (step.kind === 'function') {
      const outcome = step.fn(value, ctx);
      result =
        outcome === true
          ? true
          : typeof outcome === 'string'
            ? outcome
            : ctx.t('default', { field: ctx.field });
    } else if (step.kind === 'schema') {
      result = schemaMessage(step.schema, value, ctx);
    } else {
      const definition = registry[step.name];
      if (!definition) throw new Error(`unknown validation rule "${step.name}"`);
      const skip = !definition.checksEmpty && isEmpty(value);
      result =
        skip || definition.validate(value, step.args, ctx)
          ? true
          : ctx.t(definition.message, definition.params?.(step.args, value));
    }
    if (result !== true) return result;
  }
  return true;
}

/** Field names a rule set compares against (so the form re-checks this field when they change). */
export function dependenciesOf(rules: Rules | undefined, name: string): string[] {
  return steps(rules)
    .filter((s): s is Extract<Step, { kind: 'rule' }> => s.kind === 'rule' && s.name === 'confirmed')
    .map((s) => String(s.args[0] ?? `${name}_confirmation`));
}

/** True when the rules start with or contain `required` (for the field's required marker and aria-required). */
export function isRequired(rules: Rules | undefined): boolean {
  return steps(rules).some((s) => s.kind === 'rule' && s.name === 'required');
}
