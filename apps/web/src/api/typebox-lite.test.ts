import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAst } from 'vite';
import { contractForWeb, contractWithoutValidators, topLevelEffects } from '../../vite.config.ts';

const contractSrc = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/contract/src',
);

/** The build plugin's check of one contract file: the error it raises, or undefined. */
function check(file: string, code: string): string | undefined {
  const plugin = contractWithoutValidators();
  const transform = plugin.transform as unknown as (
    this: { error: (message: string) => never },
    code: string,
    id: string,
  ) => unknown;
  const context = {
    error: (message: string): never => {
      throw new Error(message);
    },
  };
  try {
    transform.call(context, code, path.join(contractSrc, file));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the web build's TypeBox stand-in", () => {
  it('provides every builder the contract calls', () => {
    // The build never loads a test file (its `describe(…)` would be a side effect).
    for (const file of readdirSync(contractSrc).filter(
      (name) => name.endsWith('.ts') && !name.includes('.test.'),
    ))
      expect(check(file, readFileSync(path.join(contractSrc, file), 'utf8')), file).toBeUndefined();
  });

  it('fails the build, naming file and builder, when a contract calls one it lacks', () => {
    const code =
      "import Type from 'typebox';\nexport const A = Type.Intersect([Type.Object({}), Type.Object({})]);";
    expect(check('made-up.ts', code)).toMatch(
      /made-up\.ts calls Type\.Intersect, which src\/api\/typebox-lite\.ts/,
    );
    // A type-only use is no call.
    expect(
      check('types.ts', "import Type from 'typebox';\nexport type A = Type.Static<typeof B>;"),
    ).toBeUndefined();
  });
});

describe('the contract as the web bundles it', () => {
  const code = [
    "import Type from 'typebox';",
    'const Query = Type.Object({ search: Type.String() });',
    'export const routes = {',
    '  list: defineRoute({',
    "    method: 'GET',",
    "    path: '/things/v1/things',",
    "    summary: 'List the things',",
    '    accountScoped: true,',
    "    accountRole: { min: 'ADMIN' },",
    '    querystring: Query,',
    '    response: { 200: List(Thing), ...errors }',
    '  }),',
    '};',
    'export function unique(values: string[]) {',
    '  const seen = new Set<string>();',
    '  values.forEach((value) => seen.add(value));',
    '  return seen;',
    '}',
  ].join('\n');
  const web = contractForWeb(code);

  it('keeps what the client calls a route by and drops its schemas and documentation', () => {
    expect(web).toContain("method: 'GET'");
    expect(web).toContain("path: '/things/v1/things'");
    expect(web).toContain('accountScoped: true');
    expect(web).toContain("accountRole: { min: 'ADMIN' }");
    expect(web).not.toMatch(/summary|querystring|response|List\(Thing\)/);
  });

  it('marks top-level values pure, never a call inside a function', () => {
    expect(web).toContain(
      'const Query = /* @__PURE__ */ Type.Object({ search: /* @__PURE__ */ Type.String() })',
    );
    expect(web).toContain('values.forEach((value) => seen.add(value))');
    expect(web).toContain('const seen = new Set<string>()');
  });

  it('takes every contract file as free of side effects, which each is: it only declares (decision 255)', () => {
    for (const file of readdirSync(contractSrc).filter(
      (name) => name.endsWith('.ts') && !name.includes('.test.'),
    ))
      expect(topLevelEffects(readFileSync(path.join(contractSrc, file), 'utf8')), file).toEqual([]);
    // A statement that runs when the file loads would be lost once nothing imports the file's values: the build fails.
    const registering = "import { registry } from './registry.ts';\nexport const A = 1;\nregistry.add(A);\n";
    expect(topLevelEffects(registering)).toEqual(['ExpressionStatement at line 3']);
    expect(check('users.ts', registering)).toMatch(
      /users\.ts runs code when it loads \(ExpressionStatement at line 3\)/,
    );
  });

  it('turns every contract file into code that parses', () => {
    for (const file of readdirSync(contractSrc).filter(
      (name) => name.endsWith('.ts') && !name.includes('.test.'),
    ))
      expect(
        () => parseAst(contractForWeb(readFileSync(path.join(contractSrc, file), 'utf8')), { lang: 'ts' }),
        file,
      ).not.toThrow();
  });
});
