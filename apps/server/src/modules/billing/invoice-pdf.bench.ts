/**
 * One invoice PDF with its QR-bill payment part, as the download route and the invoice mail make it: a German CHF
 * invoice of an upgrade (four lines, QR-IBAN, QR reference) with a PNG logo. Renders it RUNS times after a warm-up
 * and reports the median and p95 milliseconds per document (target median ≤ 200 ms).
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_PLANS } from '../../invoicing/plans.ts';
import { solidPng } from '../../test/png.ts';
import { QR_IBAN_CREDITOR, sampleInvoice, upgradeLines } from './invoice-pdf.fixtures.ts';
import { renderInvoicePdf, type InvoicePdfInput } from './invoice-pdf.ts';

export const RUNS = 200;
const WARM_UP = 20;

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
    // A 240 × 80 logo, so the benchmark embeds an image as real invoices do.
    logo: { bytes: solidPng(240, 80, [0xc8, 0x10, 0x2e]), contentType: 'image/png' },
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
