/**
 * The web build's stand-in for `typebox` inside packages/contract (vite.config.ts aliases it for contract files
 * only). The SPA needs the contract's route definitions (method, path, account scope) and types, not its
 * validators: the real TypeBox would add ~20 KB gzip to the first load. These builders return the same plain
 * JSON Schema shapes, so a contract schema still reads as a JSON schema where the web uses one.
 */
type Schema = Record<string | symbol, unknown>;
const OPTIONAL = Symbol('optional');

function withOptions(schema: Schema, options?: Schema): Schema {
  return { ...options, ...schema };
}

const Type = {
  String: (options?: Schema) => withOptions({ type: 'string' }, options),
  Integer: (options?: Schema) => withOptions({ type: 'integer' }, options),
  Boolean: (options?: Schema) => withOptions({ type: 'boolean' }, options),
  Null: (options?: Schema) => withOptions({ type: 'null' }, options),
  Unknown: (options?: Schema) => withOptions({}, options),
  Literal: (value: unknown, options?: Schema) => withOptions({ const: value }, options),
  Array: (items: Schema, options?: Schema) => withOptions({ type: 'array', items }, options),
  Union: (anyOf: Schema[], options?: Schema) => withOptions({ anyOf }, options),
  Enum: (values: readonly unknown[] | Record<string, unknown>, options?: Schema) =>
    withOptions({ enum: Array.isArray(values) ? [...values] : Object.values(values) }, options),
  Record: (_key: Schema, value: Schema, options?: Schema) =>
    withOptions({ type: 'object', additionalProperties: value }, options),
  Optional: (schema: Schema) => ({ ...schema, [OPTIONAL]: true }),
  Unsafe: (schema: Schema) => ({ ...schema }),
  Object: (properties: Record<string, Schema>, options?: Schema) =>
    withOptions(
      {
        type: 'object',
        properties,
        required: Object.keys(properties).filter((key) => !properties[key]![OPTIONAL]),
      },
      options,
    ),
};

export default Type;
