import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { HttpError } from './errors.ts';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type BuildValidator = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;
type BuildSerializer = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildSerializer']>;
interface Issue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  message: string;
  params: Record<string, unknown>;
}
/** A compiled Ajv validator as Fastify calls it (`schemaEnv` makes Fastify pass the parent for coercion). */
interface Validator {
  (data: unknown, context?: object): boolean;
  errors?: Issue[] | null;
  schemaEnv?: unknown;
}
type Compile = (route: { httpPart?: string }) => Validator;

const pool = AjvCompiler();
type PoolArgs = Parameters<typeof pool>;

/** Deepest nesting of objects and arrays a JSON body may have: the API's own bodies nest a few levels. */
export const JSON_MAX_DEPTH = 64;

/** Years a date or date-time the API accepts may have (decision 197): what PostgreSQL and people can mean. */
export const YEAR_MIN = 1970;
export const YEAR_MAX = 9999;

/**
 * Ajv's `date` and `date-time` formats (from ajv-formats) limited to years YEAR_MIN–YEAR_MAX: the format itself
 * takes year 0000, which PostgreSQL cannot store or compare (a 500 from the log's filter).
 */
function limitDateYears(ajv: {
  formats: Record<string, unknown>;
  addFormat: (name: string, format: object) => unknown;
}) {
  for (const name of ['date', 'date-time']) {
    const format = ajv.formats[name] as
      { validate: (text: string) => boolean; compare?: unknown } | undefined;
    if (!format) continue;
    ajv.addFormat(name, {
      ...format,
      validate: (text: string) => {
        if (!format.validate(text)) return false;
        const year = Number(text.slice(0, 4));
        return year >= YEAR_MIN && year <= YEAR_MAX;
      },
    });
  }
}

/** A number as a query string or path parameter may write it: decimal digits, optionally signed and with a fraction. */
const DECIMAL = /^-?\d{1,16}(\.\d{1,16})?$/;

/**
 * Numbers the coercion made of query or path text, checked against the text they came from: Ajv turns "1e999" into
 * Infinity after its type check and skips `maximum` for it, and reads "0x10" as 16. A number must be written in
 * decimal digits and be a finite number no larger than JavaScript's safe integers, whatever the schema says.
 */
function numberIssues(raw: Record<string, unknown>, coerced: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const [key, value] of Object.entries(coerced)) {
    const values = Array.isArray(value) ? value : [value];
    const texts = Array.isArray(raw[key]) ? (raw[key] as unknown[]) : [raw[key]];
    values.forEach((number, index) => {
      if (typeof number !== 'number') return;
      const text = texts[Array.isArray(raw[key]) ? index : 0];
      const written = typeof text !== 'string' || DECIMAL.test(text);
      if (written && Number.isFinite(number) && Math.abs(number) <= Number.MAX_SAFE_INTEGER) return;
      const at = Array.isArray(value) ? `/${key}/${index}` : `/${key}`;
      issues.push({
        keyword: 'type',
        instancePath: at,
        schemaPath: '#/properties',
        message: written ? 'is out of range' : 'must be a number in decimal digits',
        params: {},
      });
    });
  }
  return issues;
}

/**
 * A query string's or path's validator with the number check above: the request part's text is kept before Ajv
 * coerces it in place, and compared with the result.
 */
function checkingNumbers(validate: Validator): Validator {
  const checked: Validator = (data, context) => {
    const raw =
      data && typeof data === 'object'
        ? Object.fromEntries(
            Object.entries(data).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
          )
        : undefined;
    const valid = validate(data, context);
    const ours =
      raw && data && typeof data === 'object' ? numberIssues(raw, data as Record<string, unknown>) : [];
    checked.errors = [...ours, ...(valid ? [] : (validate.errors ?? []))];
    return checked.errors.length === 0;
  };
  if (validate.schemaEnv) checked.schemaEnv = validate.schemaEnv;
  return checked;
}

/**
 * A validator that compiles its schema when it is first called, not when the server starts (decision 250): Fastify
 * compiles every route's schemas on ready, over a second of CPU before the first request, most of it for routes
 * an instance may not see for a while. A schema is compiled once, on its route's first request (a few
 * milliseconds); a schema Ajv cannot compile fails that request with a 500, and the API tests call every route.
 */
function compiledOnFirstCall(compile: () => Validator): Validator {
  let validate: Validator | undefined;
  const lazy: Validator = (data, context) => {
    validate ??= compile();
    const valid = validate(data, context);
    lazy.errors = validate.errors;
    return valid;
  };
  // Fastify passes the request as the parent (so Ajv can coerce a root value in place) only to a validator with
  // `schemaEnv`, as every Ajv validator has.
  lazy.schemaEnv = true;
  return lazy;
}

/**
 * Validators per request part: a JSON body is validated as sent (no type coercion: `{"name": 42}` is refused,
 * never stored as "42"); query strings and path parameters are text, so their values are coerced to the schema's
 * types (`?page=2`, a single value as a one-item list), and a number coerced from text must be finite, in range
 * and written in decimal digits. Dates and date-times are limited to years YEAR_MIN–YEAR_MAX everywhere. Validators
 * and response serializers are compiled on their route's first use ({@link compiledOnFirstCall}).
 */
export const schemaController: SchemaController = {
  compilersFactory: {
    buildValidator: ((externalSchemas: PoolArgs[0], options: PoolArgs[1]) => {
      const withFormats = { ...options, onCreate: limitDateYears } as PoolArgs[1];
      let coercing: Compile | undefined;
      let strict: Compile | undefined;
      return ((route: { httpPart?: string }) =>
        route.httpPart === 'body'
          ? compiledOnFirstCall(() => {
              strict ??= pool(externalSchemas, {
                ...withFormats,
                customOptions: { ...options?.customOptions, coerceTypes: false },
              } as PoolArgs[1]) as unknown as Compile;
              return strict(route);
            })
          : checkingNumbers(
              compiledOnFirstCall(() => {
                coercing ??= pool(externalSchemas, withFormats) as unknown as Compile;
                return coercing(route);
              }),
            )) as never;
    }) as BuildValidator,
    buildSerializer: ((...args: Parameters<ReturnType<typeof SerializerSelector>>) => {
      let compile: ReturnType<ReturnType<typeof SerializerSelector>> | undefined;
      return (route: Parameters<NonNullable<typeof compile>>[0]) => {
        let serialize: ((data: unknown) => string) | undefined;
        return (data: unknown) => {
          compile ??= SerializerSelector()(...args);
          serialize ??= compile(route);
          return serialize(data);
        };
      };
    }) as BuildSerializer,
  },
};

/**
 * What a JSON body may not hold, found without recursion (a body nested 100,000 levels must not overflow the stack):
 * nesting deeper than JSON_MAX_DEPTH, or a key JavaScript gives a meaning on any object (`__proto__`, or
 * `constructor` holding a `prototype`), named by its path.
 */
function refusedStructure(value: unknown): { depth: true } | { key: string } | undefined {
  const pending: [value: unknown, path: string, depth: number][] = [[value, '', 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path, depth] = next;
    if (!node || typeof node !== 'object') continue;
    if (depth >= JSON_MAX_DEPTH) return { depth: true };
    if (Array.isArray(node)) {
      node.forEach((item, index) => pending.push([item, `${path}${index}.`, depth + 1]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const isPrototype =
        key === '__proto__' ||
        (key === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child);
      if (isPrototype) return { key: `${path}${key}` };
      pending.push([child, `${path}${key}.`, depth + 1]);
    }
  }
  return undefined;
}

/**
 * The JSON body parser of the whole server: an empty or malformed body is 400 MALFORMED_JSON; a body nested
 * deeper than JSON_MAX_DEPTH is 400 JSON_TOO_DEEP before any hook walks it (decision 197); valid JSON that names
 * `__proto__` (or `constructor.prototype`) is refused by name, 422 with a field error, instead of being called
 * invalid JSON. JSON.parse itself never changes a prototype; refusing the keys keeps later copies safe.
 */
export function registerJsonBody(app: FastifyInstance) {
  // The API takes JSON only: a text/plain body is 415, not a string for the schema to refuse.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(new HttpError(400, 'MALFORMED_JSON', 'The body is empty; send JSON or leave out Content-Type'));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      done(new HttpError(400, 'MALFORMED_JSON', 'Body is not valid JSON'));
      return;
    }
    const refused = refusedStructure(value);
    if (refused && 'depth' in refused) {
      done(
        new HttpError(
          400,
          'JSON_TOO_DEEP',
          `The body nests objects and arrays more than ${JSON_MAX_DEPTH} levels deep`,
        ),
      );
      return;
    }
    if (refused) {
      done(
        new HttpError(422, 'VALIDATION_FAILED', `Invalid body: ${refused.key} is not allowed`, {
          [refused.key]: 'is not allowed',
        }),
      );
      return;
    }
    done(null, value);
  });
}
