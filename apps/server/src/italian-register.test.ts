import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { productTextFiles, repo } from './test/product-texts.ts';

/**
 * The Italian product addresses the reader with "lei" ("Acceda con il suo login", "Non era lei?"), as the web
 * app does: never "tu" ("il tuo", "ti", "hai", "puoi", "Non sei stato tu?") nor "voi" ("il vostro", "potete").
 * Buttons keep the short imperative ("Accedi", "Salva"), which this does not look at. "vi" stays allowed: it is
 * also "there" ("Non vi ha più accesso").
 */
const INFORMAL =
  /\b(?:tuo|tua|tuoi|tue|ti|hai|puoi|vuoi|vostro|vostra|vostri|vostre|voi|potete|avete)\b|\b[Nn]on sei\b|\b[Ss]ei stat[oa]\b/;
/** A greeting addresses anyone: "Le diamo il benvenuto", never the masculine-only "Benvenuto" (nor "Benvenuti"). */
const MASCULINE_GREETING = /\bBenvenut[oi]\b/;
/** The customer's account is "l'account" everywhere, never "il conto" (a bank account may be "conto bancario"). */
const CONTO =
  /\b(?:il|un|del|al|nel|dal|sul|questo|suo|mio|proprio|altro) conto\b(?! bancario| postale)|\bconti\b|\bConto\b/;
/**
 * Deleting an account is "l'eliminazione" ("sarà eliminato") as on the company page, never "la cancellazione"
 * ("sarà cancellato"); the erasure of personal data a person may ask for stays "la loro cancellazione".
 */
/** The reader may be anyone: "Non era lei?", "Prima volta su…?", "Continua la sessione", never a masculine-only form. */
const MASCULINE_READER =
  /\b[Nn]on è stato lei\b|\bÈ stato lei\b|\bNuovo (?:su|utente)\b|\bResta connesso\b|["']Disconnesso["']/;
const CANCELLAZIONE = /\b[Cc]ancellazione (?:dell’account|di)\b|\bsarà cancellat[oa]\b|"Cancellazione\b/;

describe('Italian in one register and one word (issue 23 item 9)', () => {
  it('says "lei", "account" and "eliminazione", and greets anyone, in every text of the web app, the sign-in pages, the mails and the PDFs', () => {
    const files = productTextFiles();
    for (const place of [
      'apps/web/src/i18n/locales/it/messages.json',
      'apps/web/src/i18n/locales/it/validation.json',
      'apps/server/src/idp/i18n.ts',
      'apps/server/src/idp/passkey-texts.ts',
      'apps/server/src/idp/security-mails.ts',
      'apps/server/src/notifications/mail-texts.ts',
      'apps/server/src/modules/billing/invoice-pdf.texts.ts',
      'apps/server/src/demo/lessons.ts',
    ]) {
      expect(files).toContain(path.join(repo, place));
    }
    const offending = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          const found =
            INFORMAL.exec(line) ??
            CONTO.exec(line) ??
            MASCULINE_GREETING.exec(line) ??
            MASCULINE_READER.exec(line) ??
            CANCELLAZIONE.exec(line);
          return found ? [`${path.relative(repo, file)}:${i + 1}: ${found[0]}`] : [];
        }),
    );
    expect(offending).toEqual([]);
  });
});
