import { vi, type MockInstance } from 'vitest';
import i18next, { type TFunction } from 'i18next';
import { showText } from '@/i18n/later.ts';
import { toast, type ToastType } from '@/ui/toast-store.ts';
import { messageFiles, validationFiles } from './i18n.ts';

/**
 * Keeps toasts off the screen and lets a test assert on them: `expect(shownToasts('success')).toContain(…)`
 * (the texts as the user reads them in German), or on the calls themselves (`not.toHaveBeenCalled()`).
 */
export function watchToasts(): void {
  vi.spyOn(toast, 'success').mockReturnValue(0);
  vi.spyOn(toast, 'error').mockReturnValue(0);
}

const german = i18next.createInstance();
void german.init({
  lng: 'de',
  ns: ['messages', 'validation'],
  defaultNS: 'messages',
  resources: { de: { messages: messageFiles.de, validation: validationFiles.de } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** The German texts of the toasts raised so far (of a type), oldest first; `source` is the watched toast object. */
export function shownToasts(type: ToastType, source: Record<ToastType, unknown> = toast): string[] {
  const spy = source[type] as MockInstance<(message: string) => number>;
  return spy.mock.calls.map(([message]) => showText(message, german.t as TFunction<'messages'>));
}
