import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BRAND_MIN_CONTRAST, contrastRatio, DEFAULT_BRAND_COLOR, parseHexColor } from '@portal/contract';
import { ConfigError, type Env } from './parse.ts';

/** Where the server serves the configured logo (with `?v=<hash>` in links, so a new file is fetched anew). */
export const BRAND_LOGO_PATH = '/brand/logo';

/** A logo file larger than this is refused: it goes into every invoice PDF and is shown on every page. */
export const BRAND_LOGO_MAX_BYTES = 512 * 1024;

export interface BrandLogo {
  bytes: Buffer;
  contentType: 'image/png' | 'image/svg+xml';
  /** The logo's address on this server, with its version: `/brand/logo?v=…`. */
  path: string;
}

/** The product's look beside its name (PRODUCT_NAME): primary colour and optional logo (decision 207). */
export interface Brand {
  /** BRAND_COLOR as `#rrggbb`; white text on it reaches 4.5:1. */
  color: string;
  /** BRAND_LOGO: a PNG or SVG file, read at start; null without one. */
  logo: BrandLogo | null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** An SVG document: optional XML declaration, comments and doctype, then the `<svg` element. */
const SVG_START =
  /^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

/** BRAND_COLOR: a hex colour that white text is legible on (4.5:1), else the start fails naming the ratio. */
export function brandColor(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_BRAND_COLOR;
  const color = parseHexColor(raw);
  if (!color)
    throw new ConfigError('BRAND_COLOR', `must be a hex colour like ${DEFAULT_BRAND_COLOR} (got "${raw}")`);
  const ratio = contrastRatio(color, '#ffffff');
  if (ratio < BRAND_MIN_CONTRAST) {
    throw new ConfigError(
      'BRAND_COLOR',
      `must be dark enough for white text on it: white on ${color} reaches ${ratio.toFixed(2)}:1, at least ` +
        `${BRAND_MIN_CONTRAST}:1 is needed (choose a darker shade)`,
    );
  }
  return color;
}

function logoType(bytes: Buffer): BrandLogo['contentType'] | null {
  // A PNG: the signature, then the IHDR chunk.
  if (
    bytes.length > 24 &&
    bytes.subarray(0, 8).equals(PNG_SIGNATURE) &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  )
    return 'image/png';
  if (SVG_START.test(bytes.subarray(0, 4096).toString('utf8'))) return 'image/svg+xml';
  return null;
}

/** BRAND_LOGO: the path of a PNG or SVG file, read once at start. */
export function brandLogo(raw: string | undefined): BrandLogo | null {
  if (!raw) return null;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.resolve(raw));
  } catch (error) {
    throw new ConfigError('BRAND_LOGO', `cannot be read: ${(error as Error).message}`);
  }
  if (bytes.length > BRAND_LOGO_MAX_BYTES) {
    throw new ConfigError('BRAND_LOGO', `is larger than ${BRAND_LOGO_MAX_BYTES / 1024} KB (${raw})`);
  }
  const contentType = logoType(bytes);
  if (!contentType) throw new ConfigError('BRAND_LOGO', `must be a PNG or SVG file (${raw})`);
  const version = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return { bytes, contentType, path: `${BRAND_LOGO_PATH}?v=${version}` };
}

export function brandConfig(env: Env): Brand {
  return { color: brandColor(env.BRAND_COLOR), logo: brandLogo(env.BRAND_LOGO) };
}
