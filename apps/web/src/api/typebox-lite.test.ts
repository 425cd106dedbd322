import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contractWithoutValidators } from '../../vite.config.ts';

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
    for (const file of readdirSync(contractSrc).filter((name) => name.endsWith('.ts')))
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
