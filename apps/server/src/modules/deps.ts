// What every area module is given: the one place where the shared floors below meet the areas (decision 204).
import type { Readable } from 'node:stream';
import type { Invoice, Language } from '@portal/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { PortalUser } from '../http/types.ts';
import type { FileStore } from '../files/files.ts';
import type { Route } from '../http/route.ts';
import type { Invoicing } from '../invoicing/invoicing.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { LiveHub } from '../notifications/live.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { Secrets } from '../secrets/secrets.ts';

/** What an area module gets to register its routes (app.ts passes the same to every module). */
export interface ModuleDeps {
  /** The server's configuration; an area reads its own section (`config.cloud`, `config.shop`). */
  config: Config;
  db: Db;
  route: Route;
  /** Mails of an area (invitations, transfers): rendered by the area in the recipient's language. */
  mailer: Mailer;
  /** Scheduled and queued work: an area defines its job kinds here once and enqueues them. */
  jobs: JobRunner;
  /** Seals secrets an area stores (cloud tokens, shop keys): `secrets.seal(value, '<table>:<row id>')`. */
  secrets: Secrets;
  /** Uploaded files of the account (logos, attachments): one store, in the database or a folder. */
  files: FileStore;
  /** Writes notifications (type key + parameters) in the transaction of the change that causes them. */
  notifier: Notifier;
  /** This instance's live notification streams (the notifications area's server-sent events). */
  live: LiveHub;
  /** Issues invoices (numbers, references, totals) for the subscriptions and billing areas; billing settings. */
  invoicing: Invoicing;
  /** What the data exports take from the billing and logs areas (below). */
  exportSources: ExportSources;
}

/**
 * What the data exports write from other areas (decision 240), each as that area's own download gives it: wired by
 * the composition root (app.ts), so that no area imports another.
 */
export interface ExportSources {
  /** An invoice's file name, as its download names it. */
  invoiceFileName(invoice: Pick<Invoice, 'kind' | 'number'>, language: Language): string;
  /** An invoice's PDF, byte for byte its download; null when the account has no such invoice. */
  invoicePdf(db: Db, accountUuid: string, invoiceUuid: string): Promise<Buffer | null>;
  /** The account's whole log up to `to`, read by its owner `reader`, as the log's CSV export writes it. */
  logCsv(db: Db, reader: PortalUser, accountUuid: string, to: string, language: Language): Readable;
}

/** An area module: registers its contract routes, e.g. `registerAccountsRoutes`. */
export type AreaModule = (deps: ModuleDeps) => void;
