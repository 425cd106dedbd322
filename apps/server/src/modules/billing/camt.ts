// Reading the bank's camt.054 file (ISO 20022 BankToCustomerDebitCreditNotification, as Swiss banks send it under
// the Swiss Payment Standards): every booked credit, one per transaction, with its amount in minor units, booking
// day, structured reference (QR reference or RF creditor reference), the debtor's name and a key that stays the
// same when the bank sends the same credit again in another file. Anything that is not such a file is refused
// before anything is booked; a document type declaration is refused outright, so no entity can ever expand.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';

/** Why a file was refused; the texts are message keys of the web app's billing staff page. */
export type CamtProblem =
  | 'camtEmpty'
  | 'camtTooLarge'
  | 'camtNotXml'
  | 'camtDoctype'
  | 'camtStructure'
  | 'camtNotCamt054'
  | 'camtMalformed';

export class CamtRefused extends Error {
  constructor(
    readonly problem: CamtProblem,
    detail?: string,
  ) {
    super(detail ? `${problem}: ${detail}` : problem);
    this.name = 'CamtRefused';
  }
}

export interface CamtCredit {
  /** Identifies the credit across files: the bank's reference of the transaction, of its entry, or its content. */
  entryKey: string;
  amountMinor: number;
  currency: string;
  /** The booking day, YYYY-MM-DD. */
  bookedOn: string;
  /** The structured reference without spaces, upper case; null when the credit carries none. */
  reference: string | null;
  debtorName: string | null;
}

export interface CamtNotification {
  /** The message's id (GrpHdr/MsgId), kept with the import. */
  messageId: string | null;
  /** The namespace's version, e.g. "camt.054.001.08". */
  version: string;
  credits: CamtCredit[];
}

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:(camt\.054\.001\.\d{2})$/;

/** Elements that may repeat; the parser gives them as arrays always, so one and many read the same way. */
const REPEATED = new Set(['Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls', 'Strd', 'Ustrd', 'CdtrRefInf']);

/**
 * Deepest nesting of elements the parser reads: a camt.054 file nests about a dozen levels (Document … TxDtls,
 * RltdPties, Dbtr, Pty, PstlAdr, AdrLine); deeper is no bank file and is refused as `camtStructure`.
 */
export const CAMT_MAX_DEPTH = 40;

/**
 * fast-xml-parser loads with the first bank file read, not at the server's start (decision 253); synchronously, so
 * the parse stays synchronous.
 */
let xmlReader: { parser: FastXmlParser.XMLParser; validator: typeof FastXmlParser.XMLValidator } | null =
  null;
function xmlTools() {
  if (xmlReader) return xmlReader;
  const { XMLParser, XMLValidator } = createRequire(import.meta.url)(
    'fast-xml-parser',
  ) as typeof FastXmlParser;
  const parser = new XMLParser({
    ignoreAttributes: false,
    maxNestedTags: CAMT_MAX_DEPTH,
    attributeNamePrefix: '@',
    removeNSPrefix: false,
    // Amounts and references stay the exact text of the file: no number conversion, no trimming surprises.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => REPEATED.has(name),
  });
  xmlReader = { parser, validator: XMLValidator };
  return xmlReader;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The child element of `node` at `path`, with any namespace prefix of the element names ignored. */
function child(node: unknown, ...path: string[]): unknown {
  let current: unknown = node;
  for (const name of path) {
    if (Array.isArray(current)) current = current[0];
    if (!isNode(current)) return undefined;
    const key = Object.keys(current).find((k) => k === name || k.endsWith(`:${name}`));
    current = key === undefined ? undefined : current[key];
  }
  return current;
}

function list(node: unknown, name: string): unknown[] {
  const value = child(node, name);
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of an element (an element with attributes keeps its text under '#text'). */
function text(node: unknown, ...path: string[]): string | null {
  const value = path.length ? child(node, ...path) : node;
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first.trim() || null;
  if (isNode(first) && typeof first['#text'] === 'string') return first['#text'].trim() || null;
  return null;
}

/** The namespaces an element declares (the default one and prefixed ones). */
function namespaces(node: unknown): string[] {
  const first = Array.isArray(node) ? node[0] : node;
  if (!isNode(first)) return [];
  return Object.entries(first)
    .filter(([key, value]) => (key === '@xmlns' || key.startsWith('@xmlns:')) && typeof value === 'string')
    .map(([, value]) => value as string);
}

function attribute(node: unknown, name: string): string | null {
  const first = Array.isArray(node) ? node[0] : node;
  if (!isNode(first)) return null;
  const value = first[`@${name}`];
  return typeof value === 'string' ? value : null;
}

/** Digits after the decimal point of a currency (2 for CHF and EUR, 0 for JPY), as ISO 4217 says. */
function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    throw new CamtRefused('camtMalformed', `unknown currency ${currency}`);
  }
}

/**
 * An amount of the file ("1234.5") in minor units of its currency (123450), read from the decimal text without
 * floating point; more decimals than the currency has are refused unless they are zeros.
 */
export function amountToMinor(amount: string, currency: string): number {
  const match = /^(\d{1,15})(?:\.(\d{1,5}))?$/.exec(amount.trim());
  if (!match) throw new CamtRefused('camtMalformed', `amount ${amount}`);
  const digits = minorDigits(currency);
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) throw new CamtRefused('camtMalformed', `amount ${amount}`);
  const minor =
    BigInt(match[1]!) * 10n ** BigInt(digits) +
    BigInt((fraction.slice(0, digits) || '0').padEnd(digits, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new CamtRefused('camtMalformed', `amount ${amount}`);
  return Number(minor);
}

function readAmount(node: unknown): { amountMinor: number; currency: string } | null {
  const amount = child(node, 'Amt');
  const value = text(amount);
  const currency = attribute(amount, 'Ccy');
  if (value === null || currency === null) return null;
  if (!/^[A-Z]{3}$/.test(currency)) throw new CamtRefused('camtMalformed', `currency ${currency}`);
  return { amountMinor: amountToMinor(value, currency), currency };
}

/** A booking day: BookgDt/Dt, or the day of BookgDt/DtTm as the bank wrote it. */
function readDay(entry: unknown): string | null {
  const day = text(entry, 'BookgDt', 'Dt') ?? text(entry, 'BookgDt', 'DtTm')?.slice(0, 10) ?? null;
  if (day === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    throw new CamtRefused('camtMalformed', `booking date ${day}`);
  }
  return day;
}

/** The first structured creditor reference of a transaction (QR reference or RF…), without spaces. */
function readReference(tx: unknown): string | null {
  for (const strd of list(child(tx, 'RmtInf'), 'Strd')) {
    for (const info of list(strd, 'CdtrRefInf')) {
      const ref = text(info, 'Ref');
      if (ref) return ref.replace(/\s+/g, '').toUpperCase();
    }
  }
  return null;
}

/** The debtor's name: RltdPties/Dbtr/Nm up to version 07, RltdPties/Dbtr/Pty/Nm from 08 on. */
function readDebtor(tx: unknown): string | null {
  const debtor = child(tx, 'RltdPties', 'Dbtr');
  return text(debtor, 'Nm') ?? text(debtor, 'Pty', 'Nm');
}

/** Whether the entry is booked: Sts is the code itself up to version 07 and Sts/Cd from 08 on. */
function isBooked(entry: unknown): boolean {
  const status = text(entry, 'Sts') ?? text(entry, 'Sts', 'Cd');
  return status === null || status === 'BOOK';
}

function contentKey(parts: unknown[]): string {
  return `sha256:${crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** The credits of one entry: one per transaction, or the entry itself when it lists no transactions. */
function entryCredits(entry: unknown): CamtCredit[] {
  const entryAmount = readAmount(entry);
  const bookedOn = readDay(entry);
  if (!entryAmount || !bookedOn)
    throw new CamtRefused('camtMalformed', 'entry without amount or booking date');
  const entryRef = text(entry, 'AcctSvcrRef');
  const transactions = list(entry, 'NtryDtls').flatMap((details) => list(details, 'TxDtls'));
  if (transactions.length === 0) {
    const credit = { ...entryAmount, bookedOn, reference: null, debtorName: null };
    return [{ entryKey: entryRef ? `entry:${entryRef}` : contentKey([credit]), ...credit }];
  }
  const credits: CamtCredit[] = [];
  transactions.forEach((tx, index) => {
    // A transaction inside a credit entry may itself be a debit (a returned payment): it is no credit.
    const indicator = text(tx, 'CdtDbtInd');
    if (indicator !== null && indicator !== 'CRDT') return;
    const amount = readAmount(tx) ?? (transactions.length === 1 ? entryAmount : null);
    if (!amount) throw new CamtRefused('camtMalformed', 'transaction without amount');
    const credit = { ...amount, bookedOn, reference: readReference(tx), debtorName: readDebtor(tx) };
    const txRef = text(tx, 'Refs', 'AcctSvcrRef');
    const entryKey = txRef
      ? `tx:${txRef}`
      : entryRef
        ? `entry:${entryRef}#${index}`
        : contentKey([credit, text(tx, 'Refs', 'EndToEndId'), text(tx, 'Refs', 'InstrId'), index]);
    credits.push({ entryKey, ...credit });
  });
  return credits;
}

/**
 * Parses a camt.054 file (any version 001.xx; 04 and 08 are what Swiss banks send) and returns its booked credits.
 * Throws CamtRefused for a file that is empty, too large, no XML, has a document type declaration, nests too deep or
 * names an element like a JavaScript prototype key, is no camt.054, or holds an entry it cannot read.
 */
export function parseCamt054(content: Buffer, maxBytes: number): CamtNotification {
  if (content.length === 0) throw new CamtRefused('camtEmpty');
  if (content.length > maxBytes) throw new CamtRefused('camtTooLarge');
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw new CamtRefused('camtNotXml');
  }
  // camt files never carry a DTD: refusing one means no entity of the file is ever defined, let alone expanded.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new CamtRefused('camtDoctype');
  if (!xml.trimStart().startsWith('<')) throw new CamtRefused('camtNotXml');
  const { parser, validator } = xmlTools();
  const valid = validator.validate(xml);
  if (valid !== true) throw new CamtRefused('camtNotXml', valid.err.msg);
  let parsed: unknown;
  try {
    parsed = parser.parse(xml);
  } catch (error) {
    // The parser refuses nesting deeper than CAMT_MAX_DEPTH and elements named __proto__ or constructor (it
    // keeps attributes and prefixed names as harmless keys); any other failure of it is the file's too.
    throw new CamtRefused('camtStructure', error instanceof Error ? error.message : undefined);
  }
  const root = child(parsed, 'Document');
  const version = namespaces(root)
    .map((uri) => NAMESPACE.exec(uri)?.[1])
    .find(Boolean);
  const body = child(root, 'BkToCstmrDbtCdtNtfctn');
  if (!version || !isNode(body)) throw new CamtRefused('camtNotCamt054');
  const credits = list(body, 'Ntfctn')
    .flatMap((notification) => list(notification, 'Ntry'))
    .filter(
      (entry) => text(entry, 'CdtDbtInd') === 'CRDT' && text(entry, 'RvslInd') !== 'true' && isBooked(entry),
    )
    .flatMap(entryCredits);
  return { messageId: text(body, 'GrpHdr', 'MsgId'), version, credits };
}
