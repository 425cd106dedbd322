import { DEFAULT_BRAND_COLOR, type Language } from '@portal/contract';
import { escapeHtml } from '../http/html.ts';

/**
 * The one layout of the product's mails: a header with the product's name in the brand colour, the greeting, the
 * body's blocks (paragraphs, buttons, facts, a quoted note, a bare address), and a footer with the signature — as
 * HTML and as the text part, from the same blocks. Every value is escaped in the HTML part; a renderer only says
 * what its mail says (its words, in the recipient's language) and never writes markup.
 */

/**
 * The brand of the mails: the configured primary colour (BRAND_COLOR, the web's; white on it 4.5:1 or more) and the
 * absolute address of a PNG logo (BRAND_LOGO under PUBLIC_URL) shown beside the name in the header. The renderers
 * render with the default; the mailer renders each mail again in the configured brand as it sends it (decision 207).
 */
export interface MailBrand {
  color: string;
  logoUrl: string | null;
}

export const DEFAULT_MAIL_BRAND: MailBrand = { color: DEFAULT_BRAND_COLOR, logoUrl: null };

/** A rendered mail, with the content it was rendered from (the mailer renders it again in the configured brand). */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  layout: MailContent;
}

/** A link the reader is asked to follow: a button in HTML, "label: address" on one line in the text part. */
export interface MailButton {
  button: { label: string; url: string };
}

/** Facts about what happened (time, browser, address…), one complete line each ("Time: 27 November 2026"). */
export interface MailFacts {
  facts: string[];
}

/** A person's own words (a note to the recipient), quoted as they wrote them. */
export interface MailQuote {
  quote: string;
}

/** An address shown as itself (where the mail has no words for a button). */
export interface MailUrl {
  url: string;
}

/** One block of a mail's body; a string is a paragraph, its "\n" line breaks kept. */
export type MailBlock = string | MailButton | MailFacts | MailQuote | MailUrl;

export interface MailContent {
  to: string;
  language: Language;
  /** The name in the header and, unless `plainSubject`, before the subject ("Portal: …"); the signature's too. */
  product: string;
  subject: string;
  /** The subject as given, without the product's name (a billing mail names its provider itself). */
  plainSubject?: boolean;
  /** The first line ("Guten Tag Anna,"); a mail without one starts with its body. */
  greeting?: string;
  body: MailBlock[];
  /** The closing lines ("\n" between them); "— {product}" unless given. */
  signature?: string;
}

const FONT = `-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;
const TEXT_COLOR = '#1b1b1b';
const MUTED_COLOR = '#5f6368';
const LINE_COLOR = '#e0e0e0';
const PAGE_COLOR = '#f6f6f7';

/**
 * "Label: value", as the language writes it: French puts a non-breaking space before the colon ("Référence : …"),
 * like every French text of the product.
 */
export const labelled = (language: Language, label: string, value: string) =>
  `${label}${language === 'fr' ? '\u00a0' : ''}: ${value}`;

const lines = (text: string) => text.split('\n').map(escapeHtml).join('<br>');

function blockText(block: MailBlock, language: Language): string {
  if (typeof block === 'string') return block;
  if ('button' in block) return labelled(language, block.button.label, block.button.url);
  if ('facts' in block) return block.facts.join('\n');
  if ('quote' in block) return block.quote;
  return block.url;
}

function blockHtml(block: MailBlock, color: string): string {
  if (typeof block === 'string') return `<p style="margin:0 0 16px">${lines(block)}</p>`;
  if ('button' in block) {
    const { label, url } = block.button;
    return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:4px 0 20px"><tr><td style="border-radius:6px;background:${color}"><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 20px;border-radius:6px;color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(label)}</a></td></tr></table>`;
  }
  if ('facts' in block) {
    return `<p style="margin:0 0 16px;padding:12px 16px;border-radius:6px;background:${PAGE_COLOR}">${block.facts.map(escapeHtml).join('<br>')}</p>`;
  }
  if ('quote' in block) {
    return `<blockquote style="margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${LINE_COLOR};white-space:pre-wrap">${escapeHtml(block.quote)}</blockquote>`;
  }
  return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="color:${color}">${escapeHtml(block.url)}</a></p>`;
}

function headerHtml(product: string, brand: MailBrand): string {
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" height="32" style="height:32px;max-width:160px;border:0;vertical-align:middle;margin-right:10px">`
    : '';
  return `${logo}<span style="vertical-align:middle">${escapeHtml(product)}</span>`;
}

/** The mail of `content` as text and HTML, in the layout every mail of the product shares. */
export function renderMail(content: MailContent, brand: MailBrand = DEFAULT_MAIL_BRAND): RenderedMail {
  const { color } = brand;
  if (!/^#[0-9a-f]{6}$/i.test(color)) throw new Error(`mail brand colour ${color} is not #rrggbb`);
  const { to, language, product, greeting, body } = content;
  const subject = content.plainSubject ? content.subject : labelled(language, product, content.subject);
  const signature = content.signature ?? `— ${product}`;
  const text = `${[...(greeting === undefined ? [] : [greeting]), ...body.map((block) => blockText(block, language)), signature].join('\n\n')}\n`;
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${PAGE_COLOR}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${PAGE_COLOR}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-top:4px solid ${color};border-radius:8px;font:15px/1.5 ${FONT};color:${TEXT_COLOR};text-align:left">
<tr><td style="padding:20px 32px 4px;font-size:18px;font-weight:bold;color:${color}">${headerHtml(product, brand)}</td></tr>
<tr><td style="padding:16px 32px 8px">
${[...(greeting === undefined ? [] : [`<p style="margin:0 0 16px">${lines(greeting)}</p>`]), ...body.map((block) => blockHtml(block, color))].join('\n')}
</td></tr>
<tr><td style="padding:16px 32px 20px;border-top:1px solid ${LINE_COLOR};font-size:13px;color:${MUTED_COLOR}">${lines(signature)}</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;
  return { to, subject, text, html, layout: content };
}
