import { describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_BRAND, renderMail, type MailContent } from './layout.ts';

const MAIL_BRAND_COLOR = DEFAULT_MAIL_BRAND.color;

const content = (change: Partial<MailContent> = {}): MailContent => ({
  to: 'anna@example.com',
  language: 'de',
  product: 'Portal',
  subject: 'Einladung',
  greeting: 'Hallo Anna,',
  body: [
    'Erste Zeile\nzweite Zeile',
    { button: { label: 'Einladung ansehen', url: 'https://portal.example/invite?a=1&b=2' } },
    { facts: ['Zeitpunkt: 27. November 2026', 'Browser: Firefox'] },
    { quote: 'Bis bald' },
    { url: 'https://portal.example/settings' },
  ],
  ...change,
});

describe('mail layout', () => {
  it('writes the same blocks to the text part, the button as its label and address', () => {
    const mail = renderMail(content());
    expect(mail.to).toBe('anna@example.com');
    expect(mail.subject).toBe('Portal: Einladung');
    expect(mail.text).toBe(
      [
        'Hallo Anna,',
        'Erste Zeile\nzweite Zeile',
        'Einladung ansehen: https://portal.example/invite?a=1&b=2',
        'Zeitpunkt: 27. November 2026\nBrowser: Firefox',
        'Bis bald',
        'https://portal.example/settings',
        '— Portal',
      ].join('\n\n') + '\n',
    );
  });

  it('shows the button in HTML, the product in the header and the brand colour', () => {
    const { html } = renderMail(content());
    expect(html).toMatch(/^<!doctype html>\n<html lang="de">/);
    expect(html).toContain(
      '<a href="https://portal.example/invite?a=1&amp;b=2" style="display:inline-block;',
    );
    expect(html).toContain('>Einladung ansehen</a>');
    expect(html).toContain(`background:${MAIL_BRAND_COLOR}`);
    expect(html).toContain(
      `color:${MAIL_BRAND_COLOR}"><span style="vertical-align:middle">Portal</span></td>`,
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('<p style="margin:0 0 16px">Erste Zeile<br>zweite Zeile</p>');
    expect(html).toContain('>— Portal</td>');
    expect(MAIL_BRAND_COLOR).toBe('#d41130');
  });

  it('escapes every value in the HTML part', () => {
    const evil = '<script>x</script> & "q" \'s\'';
    const { html, text, subject } = renderMail(
      content({
        product: evil,
        subject: evil,
        greeting: evil,
        body: [
          evil,
          { button: { label: evil, url: 'https://x.example/"><script>' } },
          { facts: [evil] },
          { quote: evil },
          { url: 'https://x.example/"><img>' },
        ],
        signature: evil,
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img>');
    expect(html).toContain('href="https://x.example/&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('href="https://x.example/&quot;&gt;&lt;img&gt;"');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot; &#39;s&#39;');
    // The text part and the subject are plain text: as written.
    expect(text).toContain(evil);
    expect(subject).toBe(`${evil}: ${evil}`);
  });

  it('leaves out a missing greeting, keeps a plain subject and a given signature', () => {
    const mail = renderMail(
      content({ greeting: undefined, plainSubject: true, body: ['Text'], signature: 'Grüsse\nPortal AG' }),
    );
    expect(mail.subject).toBe('Einladung');
    expect(mail.text).toBe('Text\n\nGrüsse\nPortal AG\n');
    expect(mail.html).toContain('>Grüsse<br>Portal AG</td>');
  });

  it('refuses a colour that is not #rrggbb', () => {
    const brand = (color: string) => ({ color, logoUrl: null });
    expect(() => renderMail(content(), brand('red;background:url(x)'))).toThrow(/#rrggbb/);
    expect(renderMail(content(), brand('#0A7D3B')).html).toContain('background:#0A7D3B');
  });

  it("shows the brand's logo beside the name in the header, its address escaped", () => {
    const { html, layout } = renderMail(content(), {
      color: '#0b5cad',
      logoUrl: 'https://portal.example/brand/logo?v=1&x="',
    });
    expect(html).toContain(
      '<img src="https://portal.example/brand/logo?v=1&amp;x=&quot;" alt="" height="32"',
    );
    expect(html).toContain('color:#0b5cad"><img');
    expect(layout).toEqual(content());
  });
});
