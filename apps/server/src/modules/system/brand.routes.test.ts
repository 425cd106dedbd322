import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { describeApi } from '../../test/api.ts';
import { hasPdfToText, pdfToText } from '../../test/pdf-text.ts';
import { solidPng } from '../../test/png.ts';

// Another brand than the product's: name, colour (white on it 6.7:1) and a PNG logo.
const NAME = 'Acme Cloud';
const COLOR = '#0b5cad';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-brand-'));
const logo = solidPng(60, 20, [0x0b, 0x5c, 0xad]);
fs.writeFileSync(path.join(folder, 'logo.png'), logo);
fs.mkdirSync(path.join(folder, 'dist'));
fs.writeFileSync(
  path.join(folder, 'dist', 'index.html'),
  '<!doctype html><html><head><!--portal-config--><title>Portal</title></head><body></body></html>',
);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The fill colours (`r g b scn`, as pdfkit sets them) of a PDF's content streams, as `#rrggbb`. */
function pdfFillColors(pdf: Buffer): Set<string> {
  const colors = new Set<string>();
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const [, r, g, b] of content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) (?:rg|scn)\b/g)) {
      colors.add(
        `#${[r, g, b]
          .map((c) =>
            Math.round(Number(c) * 255)
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')}`,
      );
    }
  }
  return colors;
}

describeApi(
  'the brand from configuration',
  (api) => {
    it("gives the web app the name, colour and logo in the page's configuration, before any request", async () => {
      const page = await api.request('GET', '/', { headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      const meta = /<meta name="portal-config" content="([^"]*)"/.exec(page.body);
      const config = JSON.parse(unescape(meta![1]!));
      expect(config).toMatchObject({
        productName: NAME,
        brandColor: COLOR,
        brandLogo: expect.stringMatching(/^\/brand\/logo\?v=[0-9a-f]{12}$/),
      });
      expect(page.body).toContain(`<meta name="theme-color" content="${COLOR}" />`);
      expect(page.body).toContain(`:root{--brand:${COLOR}}`);

      const served = await api.request('GET', config.brandLogo);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(logo)).toBe(true);
    });

    it('shows them on the sign-in pages: the name and logo in the header, the colour in their style sheet', async () => {
      // An authorization request without a client: the provider's error page, in the sign-in pages' layout.
      const page = await api.request('GET', '/realms/portal/protocol/openid-connect/auth');
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.body).toMatch(
        new RegExp(
          `<p class="kc-brand"><img class="kc-logo" src="/brand/logo\\?v=[0-9a-f]{12}" alt="">${NAME}</p>`,
        ),
      );
      const css = await api.request('GET', '/realms/portal/resources/login.css');
      expect(css.body).toContain(`--primary: ${COLOR};`);
    });

    it('brands every mail: the name, the colour and the logo by its address', async () => {
      const { rows } = await api.db.query<{ uuid: string }>(
        `select uuid from accounts where name = 'Muster AG'`,
      );
      const invited = await api.request('POST', `/api/accounts/${rows[0]!.uuid}/members/v1/invitations`, {
        as: 'owner',
        body: { emails: ['brand-check@example.com'], role: 'EMPLOYEE' },
      });
      expect(invited.statusCode).toBe(201);
      const [mail] = await api.mailsTo('brand-check@example.com');
      expect(mail!.subject).toContain(NAME);
      expect(mail!.html_body).toContain(`background:${COLOR}`);
      expect(mail!.html_body).toMatch(
        new RegExp(`color:${COLOR}"><img src="http://portal.test/brand/logo\\?v=[0-9a-f]{12}" alt=""`),
      );
      expect(mail!.html_body).not.toContain('#d41130');
    });

    it.skipIf(!hasPdfToText())(
      'brands the invoice PDF: the provider named after the product, in the colour',
      async () => {
        const { rows } = await api.db.query<{ uuid: string }>(
          `select uuid from accounts where name = 'Muster AG'`,
        );
        const account = rows[0]!.uuid;
        const base = `/api/accounts/${account}/billing/v1/invoices`;
        const [invoice] = (await api.request('GET', base, { as: 'owner' })).json().data as { uuid: string }[];
        const pdf = await api.request('GET', `${base}/${invoice!.uuid}/pdf`, { as: 'owner' });
        expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
        expect(pdfToText(pdf.rawPayload)).toContain(`${NAME} AG`);
        expect(pdfFillColors(pdf.rawPayload)).toContain(COLOR);
        // The logo is embedded as an image.
        expect(
          execFileSync('pdfimages', ['-list', '-'], { input: pdf.rawPayload, encoding: 'utf8' }),
        ).toMatch(/\s60\s+20\s+rgb/);
      },
    );
  },
  {
    embeddedIdp: true,
    env: {
      PRODUCT_NAME: NAME,
      BRAND_COLOR: COLOR,
      BRAND_LOGO: path.join(folder, 'logo.png'),
      WEB_DIST: path.join(folder, 'dist'),
    },
  },
);
