import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { productTextFiles, repo } from './test/product-texts.ts';

/** "ß" written as itself, as a JavaScript or JSON escape, or as an HTML entity. */
const SHARP_S = /ß|\\u00df|\\u\{df\}|\\xdf|&szlig;|&#223;|&#xdf;/i;

describe('Swiss Standard German (SPEC-DECISIONS 33, issue 23 item 8)', () => {
  it('writes "ss", never "ß", in every text of the web app, the sign-in pages, the mails, the PDFs and the contract', () => {
    const files = productTextFiles();
    // The walk found the places the texts live (a moved folder must not empty the check).
    for (const place of [
      'apps/web/src/i18n/locales/de/messages.json',
      'apps/web/src/i18n/locales/de/validation.json',
      'apps/server/src/idp/i18n.ts',
      'apps/server/src/notifications/mail-texts.ts',
      'apps/server/src/modules/billing/invoice-pdf.texts.ts',
      'packages/contract/src/format.ts',
    ]) {
      expect(files).toContain(path.join(repo, place));
    }
    const offending = files
      .filter((file) => SHARP_S.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(repo, file));
    expect(offending).toEqual([]);
  });
});
