import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.ts';
import { looksLikeSvg, sanitizeSvg } from './svg.ts';

// Files of an account (logos, attachments, documents) and of no account (the provider's own: lesson images, whose
// `accountUuid` is null): one store for every area. Types come from the
// content, never from the name the browser sent; SVG is sanitised before it is stored; the bytes live in the
// database, or in a folder when the server is configured with one; every file is served with its stored type,
// nosniff, a Content-Disposition and a policy that lets nothing in it run.

/** File types the store knows, with the extension a download gets. */
const EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
} as const;
export type FileType = keyof typeof EXTENSIONS;

export interface StoredFile {
  uuid: string;
  /** Null for a file of the provider's own (a lesson image). */
  accountUuid: string | null;
  purpose: string;
  contentType: FileType;
  size: number;
  sha256: string;
  fileName: string;
  createdAt: string;
}

/** Why an upload was refused; areas turn it into a field error (the texts are message keys of the web app). */
export class UploadRefused extends Error {
  constructor(readonly problem: 'fileTooLarge' | 'fileType' | 'fileEmpty') {
    super(problem);
    this.name = 'UploadRefused';
  }
}

export interface CheckedUpload {
  contentType: FileType;
  /** The content to store: as uploaded, or the sanitised SVG. */
  content: Buffer;
  /** The sent name's base with the extension of the detected type ("logo.png" holding a JPEG → "logo.jpg"). */
  fileName: string;
}

function fileNameFor(sent: string, type: FileType): string {
  const base = path.basename(sent.replace(/\\/g, '/')).replace(/\.[^.]*$/, '') || 'file';
  return `${base}.${EXTENSIONS[type]}`;
}

/**
 * Checks an upload against the types and size an area allows: the type is read from the bytes (magic numbers via
 * file-type; SVG, being text, by its root element, then sanitised). Throws UploadRefused.
 */
export async function checkUpload(
  content: Buffer,
  sentName: string,
  allowed: { types: readonly FileType[]; maxBytes: number },
): Promise<CheckedUpload> {
  if (content.length === 0) throw new UploadRefused('fileEmpty');
  if (content.length > allowed.maxBytes) throw new UploadRefused('fileTooLarge');
  // file-type loads with the first upload, not at the server's start (decision 253).
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(content);
  // file-type names any XML document application/xml; an SVG is one, told apart below by its root element.
  if (detected && detected.mime !== 'application/xml') {
    const type = detected.mime as FileType;
    if (!allowed.types.includes(type)) throw new UploadRefused('fileType');
    return { contentType: type, content, fileName: fileNameFor(sentName, type) };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw new UploadRefused('fileType');
  }
  if (allowed.types.includes('image/svg+xml') && looksLikeSvg(text)) {
    const clean = sanitizeSvg(text);
    if (!clean) throw new UploadRefused('fileType');
    return {
      contentType: 'image/svg+xml',
      content: Buffer.from(clean, 'utf8'),
      fileName: fileNameFor(sentName, 'image/svg+xml'),
    };
  }
  // Plain text is valid UTF-8 without NUL bytes and is no markup a browser would render (HTML, SVG, XML); among
  // text, the sent name's extension alone tells CSV from TXT.
  const type: FileType = /\.csv$/i.test(sentName.trim()) ? 'text/csv' : 'text/plain';
  if (!allowed.types.includes(type) || text.includes('\0') || looksLikeMarkup(text)) {
    throw new UploadRefused('fileType');
  }
  return { contentType: type, content, fileName: fileNameFor(sentName, type) };
}

/**
 * Whether text starts like a document a browser sniffs as HTML or XML (the WHATWG sniffing patterns: a tag such
 * as <html, <script, <svg, <!-- or <?xml after optional whitespace and byte order mark).
 */
export function looksLikeMarkup(text: string): boolean {
  const start = text.replace(/^\uFEFF?[\s]*/, '').slice(0, 64);
  return /^<(?:!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|svg|math|object|embed|img|meta|link|form|!--|\?xml)(?=[\s>/]|$)/i.test(
    start,
  );
}

export interface FileStore {
  /** Stores a checked upload in the caller's transaction. */
  put(
    tx: Queryable,
    input: CheckedUpload & { accountUuid: string | null; purpose: string; createdBy: string | null },
  ): Promise<StoredFile>;
  /**
   * A file of the account (null: of no account) with its bytes, or null (unknown, another account's, or its bytes
   * are gone).
   */
  read(
    q: Queryable,
    accountUuid: string | null,
    uuid: string,
  ): Promise<{ file: StoredFile; content: Buffer } | null>;
  /**
   * A file of the account read piece by piece (about `STREAM_CHUNK_BYTES` at a time, from the folder or from the
   * database), so that a large one is never whole in memory; null like `read`. The chunks are read only as they
   * are asked for (the account export, decision 240).
   */
  stream(
    q: Queryable,
    accountUuid: string,
    uuid: string,
  ): Promise<{ file: StoredFile; chunks: AsyncIterable<Uint8Array> } | null>;
  /**
   * Deletes a file's row in the caller's transaction; returns what to do once that transaction has committed
   * (remove the bytes from the folder), so a rolled-back change never loses a file still in use.
   */
  remove(tx: Queryable, accountUuid: string | null, uuid: string): Promise<() => Promise<void>>;
}

interface FileRow {
  uuid: string;
  account_uuid: string | null;
  purpose: string;
  content_type: FileType;
  size: number;
  sha256: string;
  file_name: string;
  content: Uint8Array | null;
  created_at: Date;
}

const toFile = (row: FileRow): StoredFile => ({
  uuid: row.uuid,
  accountUuid: row.account_uuid,
  purpose: row.purpose,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  fileName: row.file_name,
  createdAt: new Date(row.created_at).toISOString(),
});

/** The size of the pieces `FileStore.stream` reads. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

/** The file store: bytes in the database (`dir` null), or in `dir`, one file per uuid, written before the row. */
export function createFileStore(dir: string | null): FileStore {
  const pathOf = (uuid: string) => path.join(dir!, uuid);
  return {
    async put(tx, input) {
      const uuid = crypto.randomUUID();
      const sha256 = crypto.createHash('sha256').update(input.content).digest('hex');
      if (dir) {
        await fs.mkdir(dir, { recursive: true });
        const temporary = `${pathOf(uuid)}.part`;
        await fs.writeFile(temporary, input.content);
        await fs.rename(temporary, pathOf(uuid));
      }
      const { rows } = await tx.query<FileRow>(
        `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         returning uuid, account_uuid, purpose, content_type, size, sha256, file_name, null as content, created_at`,
        [
          uuid,
          input.accountUuid,
          input.purpose,
          input.contentType,
          input.content.length,
          sha256,
          input.fileName,
          dir ? null : input.content,
          input.createdBy,
        ],
      );
      return toFile(rows[0]!);
    },

    async read(q, accountUuid, uuid) {
      const { rows } = await q.query<FileRow>(
        `select uuid, account_uuid, purpose, content_type, size, sha256, file_name, content, created_at
           from files where uuid = $1 and account_uuid is not distinct from $2`,
        [uuid, accountUuid],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.content) return { file: toFile(row), content: Buffer.from(row.content) };
      if (!dir) return null;
      try {
        return { file: toFile(row), content: await fs.readFile(pathOf(row.uuid)) };
      } catch {
        return null;
      }
    },

    async stream(q, accountUuid, uuid) {
      const { rows } = await q.query<Omit<FileRow, 'content'> & { in_database: boolean }>(
        `select uuid, account_uuid, purpose, content_type, size, sha256, file_name, created_at,
                content is not null as in_database
           from files where uuid = $1 and account_uuid = $2`,
        [uuid, accountUuid],
      );
      const row = rows[0];
      if (!row) return null;
      const file = toFile({ ...row, content: null });
      if (row.in_database) {
        // substring() of a bytea reads only its part (1-based offsets): one query per chunk.
        const chunks = async function* () {
          for (let offset = 0; offset < row.size; offset += STREAM_CHUNK_BYTES) {
            const part = await q.query<{ part: Uint8Array }>(
              'select substring(content from $3 for $4) as part from files where uuid = $1 and account_uuid = $2',
              [uuid, accountUuid, offset + 1, STREAM_CHUNK_BYTES],
            );
            const bytes = part.rows[0]?.part;
            if (!bytes) throw new Error(`file ${uuid} went away while it was read`);
            yield bytes;
          }
        };
        return { file, chunks: chunks() };
      }
      if (!dir) return null;
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(row.uuid), 'r');
      } catch {
        return null;
      }
      // The stream closes the handle when it ends or is destroyed (the reader stopped early).
      return { file, chunks: handle.createReadStream({ highWaterMark: STREAM_CHUNK_BYTES }) };
    },

    async remove(tx, accountUuid, uuid) {
      await tx.query('delete from files where uuid = $1 and account_uuid is not distinct from $2', [
        uuid,
        accountUuid,
      ]);
      return async () => {
        if (dir) await fs.rm(pathOf(uuid), { force: true });
      };
    },
  };
}

/** RFC 6266: an ASCII fallback name and the exact name in UTF-8. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Sends a stored file: its stored type, nosniff, a Content-Disposition, a policy under which nothing in the file
 * runs or loads (an SVG opened on its own included), private caching revalidated by its hash (304 when unchanged).
 */
export function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  { file, content }: { file: StoredFile; content: Buffer },
  kind: 'inline' | 'attachment' = 'inline',
): Buffer {
  const etag = `"${file.sha256}"`;
  reply
    // Text is stored only when it is valid UTF-8.
    .header(
      'Content-Type',
      file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
    )
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition(kind, file.fileName))
    .header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    )
    .header('Cache-Control', 'private, no-cache')
    .header('ETag', etag);
  if (request.headers['if-none-match'] === etag) {
    reply.code(304);
    return Buffer.alloc(0);
  }
  return content;
}
