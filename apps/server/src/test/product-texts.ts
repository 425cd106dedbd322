import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Where the product's texts live: the web app (its locale files, and anything written in its code), the sign-in
 * pages (idp/i18n.ts and the idp's pages), the mails (notifications/mail-texts.ts, the areas' mails), the invoice
 * PDF (invoice-pdf.texts.ts), the demo course and the contract. Tests and fixtures are data (a street name a
 * customer typed, a capital-letters check), not the product's own texts.
 */
const ROOTS = ['apps/web/src', 'apps/web/index.html', 'apps/server/src', 'packages/contract/src'];
const TEXT_FILE = /\.(ts|tsx|json|html|css|js)$/;
const DATA_FILE = /\.(test|fixtures)\.(ts|tsx)$/;

/** Every file of the product's texts, as absolute paths (the language checks read them). */
export function productTextFiles(): string[] {
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
