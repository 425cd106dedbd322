/**
 * One invoice PDF with its QR-bill payment part, as the download route and the invoice mail make it: a German CHF
 * invoice of an upgrade (four lines, QR-IBAN, QR reference) with a PNG logo. Renders it RUNS times after a warm-up
 * and reports the median and p95 milliseconds per document (target median ≤ 200 ms).
 */
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { DEFAULT_PLANS } from '../../invoicing/plans.ts';
import { QR_IBAN_CREDITOR, sampleInvoice, upgradeLines } from './invoice-pdf.fixtures.ts';
import { renderInvoicePdf, type InvoicePdfInput } from './invoice-pdf.ts';

export const RUNS = 200;
const WARM_UP = 20;

/** A 240 × 80 PNG logo (a solid colour), built here so the benchmark embeds an image as real invoices do. */
function pngLogo(): Buffer {
  const width = 240;
  const height = 80;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0xc8, 0x10, 0x2e]))]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface InvoicePdfFigures {
  runs: number;
  median: number;
  p95: number;
  bytes: number;
}

export async function measureInvoicePdf(): Promise<InvoicePdfFigures> {
  const input: InvoicePdfInput = {
    invoice: sampleInvoice('CHF', upgradeLines()),
    language: 'de',
    creditor: QR_IBAN_CREDITOR,
    companyName: 'Muster AG',
    logo: { bytes: pngLogo(), contentType: 'image/png' },
    plans: DEFAULT_PLANS,
  };
  let bytes = 0;
  for (let i = 0; i < WARM_UP; i += 1) bytes = (await renderInvoicePdf(input)).length;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await renderInvoicePdf(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    runs: RUNS,
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.ceil(times.length * 0.95) - 1]!,
    bytes,
  };
}

export function printInvoicePdfFigures(figures: InvoicePdfFigures): void {
  console.log(
    `  invoice PDF with QR-bill: median ${figures.median.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms over ${figures.runs} renders, ${(figures.bytes / 1024).toFixed(1)} KB (target median ≤ 200 ms)`,
  );
}
