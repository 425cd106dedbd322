import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { productTextFiles, repo } from './test/product-texts.ts';

/** Every line of the product's texts that matches, as "file:line: match". */
function offending(pattern: RegExp): string[] {
  return productTextFiles().flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const found = pattern.exec(line);
        return found ? [`${path.relative(repo, file)}:${i + 1}: ${found[0]}`] : [];
      }),
  );
}

describe('one word for one thing in every language (issue 23 item 9)', () => {
  it('names the role DC "Digital Coach" in every language, as German does', () => {
    // Not "digital coach" as a quoted text, "Digital coach", "coach numérique" or "coach digitale".
    expect(offending(/Digital coach|'digital coach'|[Cc]oachs? numériques?|[Cc]oach digital[ei]/)).toEqual(
      [],
    );
  });
});
