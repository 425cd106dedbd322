import {
  ATTACHMENTS_PER_MESSAGE_MAX,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  type AttachmentUpload,
} from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import {
  UploadRefused,
  checkUpload,
  type CheckedUpload,
  type FileStore,
  type StoredFile,
} from '../../files/files.ts';
import { HttpError } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';

// The files of a ticket's message, for customers and agents alike: the same limits, the same content check and
// the same field errors, kept in the ticket's account's file store.

const ATTACHMENT_PURPOSE = 'support-attachment';

/** 422 with one message key per refused field (the web forms' rules use the same keys). */
export const invalid = (fields: Record<string, string>) =>
  new HttpError(422, 'VALIDATION_FAILED', `Invalid: ${Object.keys(fields).join(', ')}`, fields);

const ATTACHMENT_PROBLEMS = {
  fileTooLarge: 'attachmentTooLarge',
  fileType: 'attachmentType',
  fileEmpty: 'attachmentEmpty',
} as const;

/**
 * Checks every attachment of a message (at most five, each at most 10 MB, PDF, PNG, JPEG, TXT or CSV judged
 * from the content) and adds the problems under `attachments` / `attachments.<n>`.
 */
export async function checkAttachments(
  uploads: readonly AttachmentUpload[],
  problems: Record<string, string>,
): Promise<CheckedUpload[]> {
  if (uploads.length > ATTACHMENTS_PER_MESSAGE_MAX) {
    problems.attachments = 'attachmentsTooMany';
    return [];
  }
  const checked: CheckedUpload[] = [];
  for (const [index, upload] of uploads.entries()) {
    try {
      const bytes = Buffer.from(upload.content, 'base64');
      checked.push(
        await checkUpload(bytes, upload.fileName, {
          types: ATTACHMENT_TYPES,
          maxBytes: ATTACHMENT_MAX_BYTES,
        }),
      );
    } catch (error) {
      if (!(error instanceof UploadRefused)) throw error;
      problems[`attachments.${index}`] = ATTACHMENT_PROBLEMS[error.problem];
    }
  }
  return checked;
}

/** Keeps checked files in the ticket's account, in the caller's transaction. */
export async function keepFiles(
  tx: Queryable,
  files: FileStore,
  user: PortalUser,
  accountUuid: string,
  uploads: readonly CheckedUpload[],
): Promise<StoredFile[]> {
  const stored: StoredFile[] = [];
  for (const upload of uploads) {
    stored.push(
      await files.put(tx, { ...upload, accountUuid, purpose: ATTACHMENT_PURPOSE, createdBy: user.uuid }),
    );
  }
  return stored;
}

/** A kept file as an audit entry names it (never its content). */
export const fileSummary = (file: StoredFile) => ({
  uuid: file.uuid,
  fileName: file.fileName,
  contentType: file.contentType,
  size: file.size,
});
