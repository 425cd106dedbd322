import { execFileSync } from 'node:child_process';

/** Whether poppler's pdftotext is installed (tests that read a PDF's text skip that check without it). */
export function hasPdfToText(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The text of a PDF, as poppler's pdftotext reads it from standard input. */
export function pdfToText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
}
