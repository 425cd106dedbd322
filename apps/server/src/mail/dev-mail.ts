import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../config.ts';
import type { Db } from '../db/client.ts';
import { plainNotFound } from '../http/errors.ts';
import { escapeHtml } from '../http/html.ts';

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  attachments: { fileName: string }[] | null;
  created_at: Date | string;
}

/** Escapes the text and turns http(s) URLs into links, so a person can click them. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

const CSS = `:root{color-scheme:light dark;--fg:#1d1d1f;--bg:#f5f5f5;--card:#fff;--line:#ddd;--primary:#c62828}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#121212;--card:#1e1e1e;--line:#333;--primary:#ef5350}}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:860px;margin:0 auto;padding:24px}h1{font-size:1.5rem}
article{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px;margin:0 0 16px}
h2{font-size:1.1rem;margin:0 0 4px}p.meta{margin:0 0 8px;opacity:.8}pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}
a{color:var(--primary)}`;

/**
 * Demo mode only: GET /dev/mail lists the outbox (newest first); /dev/mail.json serves it for tests.
 * The outbox holds reset and verification links, so it answers only to clients on this machine (the client
 * address follows TRUST_PROXY); everyone else gets a plain 404, whatever it accepts.
 */
export async function registerDevMail(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopbackHost(request.ip)) return plainNotFound(reply);
  };
  const load = async (to: unknown) => {
    const recipient = typeof to === 'string' && to ? to : null;
    const { rows } = await db.query<OutboxRow>(
      `select id, recipient, subject, text_body, attachments, created_at from mail_outbox
       where $1::text is null or lower(recipient) = lower($1) order by id desc limit 100`,
      [recipient],
    );
    return rows;
  };

  app.get('/dev/mail.css', { onRequest }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(CSS),
  );

  app.get<{ Querystring: { to?: string } }>('/dev/mail.json', { onRequest }, async (request, reply) => {
    const rows = await load(request.query.to);
    return reply.header('cache-control', 'no-store').send({
      data: rows.map((row) => ({
        id: Number(row.id),
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        attachments: (row.attachments ?? []).map((attachment) => attachment.fileName),
        createdAt: new Date(row.created_at).toISOString(),
      })),
    });
  });

  app.get<{ Querystring: { to?: string } }>('/dev/mail', { onRequest }, async (request, reply) => {
    const rows = await load(request.query.to);
    const items = rows
      .map(
        (row) => `<article aria-labelledby="mail-${row.id}">
  <h2 id="mail-${row.id}">${escapeHtml(row.subject)}</h2>
  <p class="meta">To ${escapeHtml(row.recipient)} · <time datetime="${new Date(row.created_at).toISOString()}">${escapeHtml(new Date(row.created_at).toISOString().replace('T', ' ').slice(0, 19))} UTC</time></p>
  <pre>${linkify(row.text_body)}</pre>${
    row.attachments?.length
      ? `\n  <p class="meta">Attached: ${row.attachments.map((attachment) => escapeHtml(attachment.fileName)).join(', ')}</p>`
      : ''
  }
</article>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Outbox (demo mode)</title>
<link rel="stylesheet" href="/dev/mail.css">
</head>
<body>
<main>
<h1>Outbox (demo mode)</h1>
<p>Mails the portal would have sent. No SMTP server is configured (SMTP_URL).</p>
${items || '<p>No mails yet.</p>'}
</main>
</body>
</html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
}
