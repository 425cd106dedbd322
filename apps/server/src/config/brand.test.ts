import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brandPalette, contrastRatio } from '@portal/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { solidPng } from '../test/png.ts';
import { BRAND_LOGO_MAX_BYTES, brandColor, brandLogo } from './brand.ts';
import { ConfigError } from './parse.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-brand-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
function file(name: string, content: string | Buffer): string {
  const target = path.join(folder, name);
  fs.writeFileSync(target, content);
  return target;
}

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('brand configuration', () => {
  it('defaults to the product red and no logo', () => {
    expect(loadConfig({}).brand).toEqual({ color: '#d41130', logo: null });
  });

  it('takes a hex colour that white text reaches 4.5:1 on, in either spelling', () => {
    expect(brandColor('#0B5CAD')).toBe('#0b5cad');
    expect(brandColor(' #333 ')).toBe('#333333');
    expect(loadConfig({ BRAND_COLOR: '#1f7a3a' }).brand.color).toBe('#1f7a3a');
  });

  it('refuses a colour white text is not legible on, naming the ratio it reaches', () => {
    // Orange: white on it is 2.0:1; the red's own dark tint 2.5:1; #767676 is the lightest grey that passes.
    for (const color of ['#f5a623', '#ff7a84', '#777777']) {
      const error = refusal(() => loadConfig({ BRAND_COLOR: color }));
      expect(error.variable).toBe('BRAND_COLOR');
      expect(error.message).toMatch(/white on #[0-9a-f]{6} reaches \d\.\d\d:1, at least 4\.5:1 is needed/);
    }
    expect(brandColor('#767676')).toBe('#767676');
  });

  it('refuses what is no hex colour', () => {
    for (const color of ['red', '#12345', 'rgb(0,0,0)', '#gggggg']) {
      expect(refusal(() => brandColor(color)).message).toContain('BRAND_COLOR must be a hex colour');
    }
  });

  it('reads a PNG or SVG logo at start and gives it a versioned address', () => {
    const png = brandLogo(file('logo.png', solidPng(4, 2, [0, 0, 0])));
    expect(png).toMatchObject({
      contentType: 'image/png',
      path: expect.stringMatching(/^\/brand\/logo\?v=[0-9a-f]{12}$/),
    });
    const svg = brandLogo(
      file('logo.svg', '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
    );
    expect(svg?.contentType).toBe('image/svg+xml');
    expect(svg?.path).not.toBe(png?.path);
  });

  it('refuses a logo that is missing, too large or neither PNG nor SVG', () => {
    const cases = [
      path.join(folder, 'missing.png'),
      file('logo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])),
      file('logo.html', '<html><svg></svg></html>'),
      file('huge.svg', `<svg>${' '.repeat(BRAND_LOGO_MAX_BYTES)}</svg>`),
    ];
    for (const logo of cases) {
      expect(refusal(() => loadConfig({ BRAND_LOGO: logo })).variable, logo).toBe('BRAND_LOGO');
    }
  });

  it("draws text shades from the colour: the red's as they were, another's legible on light and dark", () => {
    expect(brandPalette('#d41130')).toEqual({
      main: '#d41130',
      dark: '#b00e28',
      lightText: '#d41130',
      darkText: '#ff7a84',
    });
    const blue = brandPalette('#2f6db5');
    expect(contrastRatio(blue.lightText, '#f4f4f6')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(blue.darkText, '#1e1e1e')).toBeGreaterThanOrEqual(6);
    expect(contrastRatio(blue.darkText, '#121212')).toBeGreaterThanOrEqual(6);
  });
});
