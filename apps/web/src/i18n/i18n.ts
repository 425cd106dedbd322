import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@portal/contract';

/** Each locale's files are their own lazy chunk: only the languages in use are downloaded. */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');

export const NAMESPACES = ['messages', 'validation'] as const;
export const FALLBACK_LANGUAGE: Language = 'en';
const LAST_LANGUAGE_KEY = 'language';

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = files[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error as Error, false),
    );
  },
};

/**
 * The language to start with before the user's own is known: the one used last in this browser, else German.
 * The user's language from GET me replaces it on the first navigation.
 */
function initialLanguage(): Language {
  const last = localStorage.getItem(LAST_LANGUAGE_KEY);
  return isLanguage(last) ? last : DEFAULT_LANGUAGE;
}

export const i18n = i18next;

export async function initI18n(): Promise<void> {
  i18n.on('languageChanged', (language) => {
    document.documentElement.lang = language;
    if (isLanguage(language)) localStorage.setItem(LAST_LANGUAGE_KEY, language);
  });
  await i18n
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng: initialLanguage(),
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...NAMESPACES],
      defaultNS: 'messages',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}
