import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { HttpError } from './errors.ts';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type BuildValidator = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;
type Compile = (route: { httpPart?: string }) => unknown;

const pool = AjvCompiler();
type PoolArgs = Parameters<typeof pool>;

/**
 * Validators per request part: a JSON body is validated as sent (no type coercion: `{"name": 42}` is refused,
 * never stored as "42"); query strings and path parameters are text, so their values are coerced to the schema's
 * types (`?page=2`, a single value as a one-item list).
 */
export const schemaController: SchemaController = {
  compilersFactory: {
    buildValidator: ((externalSchemas: PoolArgs[0], options: PoolArgs[1]) => {
      const coercing = pool(externalSchemas, options) as unknown as Compile;
      const strict = pool(externalSchemas, {
        ...options,
        customOptions: { ...options?.customOptions, coerceTypes: false },
      } as PoolArgs[1]) as unknown as Compile;
      return ((route: { httpPart?: string }) =>
        route.httpPart === 'body' ? strict(route) : coercing(route)) as never;
    }) as BuildValidator,
  },
};

/** Names JavaScript gives a meaning on any object: refused as keys of a JSON body. */
function prototypeKey(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = prototypeKey(item, `${path}${index}.`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const isPrototype =
        key === '__proto__' ||
        (key === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child);
      if (isPrototype) return `${path}${key}`;
      const found = prototypeKey(child, `${path}${key}.`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The JSON body parser of the whole server: an empty or malformed body is 400 MALFORMED_JSON; valid JSON that
 * names `__proto__` (or `constructor.prototype`) is refused by name, 422 with a field error, instead of being
 * called invalid JSON. JSON.parse itself never changes a prototype; refusing the keys keeps later copies safe.
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
    const key = prototypeKey(value, '');
    if (key) {
      done(
        new HttpError(422, 'VALIDATION_FAILED', `Invalid body: ${key} is not allowed`, {
          [key]: 'is not allowed',
        }),
      );
      return;
    }
    done(null, value);
  });
}
