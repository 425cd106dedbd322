import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Where the product's texts live: the web app (its locale files, and anything written in its code), the sign-in
 * pages (idp/i18n.ts and the idp's pages), the mails (notifications/mail-texts.ts, the areas' mails), the invoice
 * PDF (invoice-pdf.texts.ts) and the contract. Tests and fixtures may hold "ß" as data (a street name a customer
 * typed, a capital-letters check), the product's own texts may not.
 */
const ROOTS = ['apps/web/src', 'apps/web/index.html', 'apps/server/src', 'packages/contract/src'];
const TEXT_FILE = /\.(ts|tsx|json|html|css|js)$/;
const DATA_FILE = /\.(test|fixtures)\.(ts|tsx)$/;

function sources(): string[] {
  const files: string[] = [];
  for (const root of ROOTS) {
    const full = path.join(repo, root);
    if (fs.statSync(full).isFile()) {
      files.push(full);
      continue;
    }
    for (const entry of fs.readdirSync(full, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && TEXT_FILE.test(entry.name) && !DATA_FILE.test(entry.name))
        files.push(path.join(entry.parentPath, entry.name));
    }
  }
  return files;
}

/** "ß" written as itself, as a JavaScript or JSON escape, or as an HTML entity. */
const SHARP_S = /ß|\\u00df|\\u\{df\}|\\xdf|&szlig;|&#223;|&#xdf;/i;

describe('Swiss Standard German (SPEC-DECISIONS 33, issue 23 item 8)', () => {
  it('writes "ss", never "ß", in every text of the web app, the sign-in pages, the mails, the PDFs and the contract', () => {
    const files = sources();
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
