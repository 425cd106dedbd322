// Test helper: an i18next instance with every locale's files loaded synchronously (the app loads them lazily).
import i18next, { type i18n } from 'i18next';
import type { Language } from '@portal/contract';

const validation = import.meta.glob<Record<string, string>>('../i18n/locales/*/validation.json', {
  eager: true,
  import: 'default',
});
const messages = import.meta.glob<Record<string, unknown>>('../i18n/locales/*/messages.json', {
  eager: true,
  import: 'default',
});

function byLocale(files: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(files).map(([file, content]) => [/locales\/(\w+)\//.exec(file)?.[1] ?? file, content]),
  );
}

export const validationFiles = byLocale(validation) as Record<Language, Record<string, string>>;
export const messageFiles = byLocale(messages) as Record<Language, Record<string, unknown>>;

export async function createTestI18n(lng: Language = 'de'): Promise<i18n> {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    (['de', 'en', 'fr', 'it'] as const).map((l) => [
      l,
      { validation: validationFiles[l] ?? {}, messages: messageFiles[l] ?? {} },
    ]),
  );
  await instance.init({
    lng,
    fallbackLng: 'en',
    ns: ['messages', 'validation'],
    defaultNS: 'messages',
    resources,
    interpolation: { escapeValue: false },
  });
  return instance;
}
