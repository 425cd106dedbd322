import { useTranslation } from 'react-i18next';
import { ATTACHMENTS_PER_MESSAGE_MAX } from '@portal/contract';
import type { ApiError } from '@/api/client.ts';

const KEYS = ['attachmentsTooMany', 'attachmentTooLarge', 'attachmentType', 'attachmentEmpty'] as const;
type Key = (typeof KEYS)[number];
const isKey = (value: string): value is Key => (KEYS as readonly string[]).includes(value);

/**
 * The server's verdict on a message's files (`attachments` or `attachments.<n>` with a problem key) as one
 * localised sentence naming each refused file; `apply` returns whether the answer had such errors.
 */
export function useAttachmentErrors() {
  const { t } = useTranslation();
  return {
    apply(error: ApiError, files: readonly File[], show: (message: string) => void): boolean {
      const texts: string[] = [];
      for (const [field, problem] of Object.entries(error.fields ?? {})) {
        const match = /^attachments(?:\.(\d+))?$/.exec(field);
        if (!match || !isKey(problem)) continue;
        const name = match[1] === undefined ? '' : (files[Number(match[1])]?.name ?? '');
        texts.push(t(`support.errors.${problem}`, { name, count: ATTACHMENTS_PER_MESSAGE_MAX }));
      }
      if (texts.length) show(texts.join(' '));
      return texts.length > 0;
    },
  };
}
