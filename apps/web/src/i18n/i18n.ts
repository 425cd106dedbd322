import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from '@portal/contract';

import { AREAS, type Area } from './areas.ts';
import { mergeTrees, type MessageTree } from './pick-keys.ts';

/** The validation texts of each language, a lazy chunk each: only the language in use is downloaded. */
const validationFiles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/validation.json');

export const NAMESPACES = ['messages', 'validation'] as const;

/**
 * The areas of texts shown so far in this tab (decision 218): the shell's from the start, a route's once it is
 * opened (`loadAreas`). A language the app switches to loads all of them before the switch.
 */
const shown = new Set<Area>(['shell']);
/** The areas of each language already in i18next's store. */
const inStore = new Map<string, Set<Area>>();

const areaFile = (area: Area, language: string) => AREAS[area][`./locales/${language}/messages.json`];

async function areasOf(language: string, areas: Iterable<Area>): Promise<MessageTree> {
  const trees = await Promise.all([...areas].map((area) => areaFile(area, language)?.() ?? {}));
  return trees.reduce<MessageTree>((all, tree) => mergeTrees(all, tree), {});
}

/** The shown areas in `language`, also those a page asked for while they loaded. */
async function readMessages(language: string): Promise<MessageTree> {
  const areas: Area[] = [];
  let tree: MessageTree = {};
  for (let more = [...shown]; more.length; more = [...shown].filter((area) => !areas.includes(area))) {
    areas.push(...more);
    tree = mergeTrees(tree, await areasOf(language, more));
  }
  inStore.set(language, new Set(areas));
  return tree;
}

/**
 * i18next's backend: `messages` of a language are the areas shown so far (so a change of language loads what is on
 * screen, before it switches), `validation` is one file.
 */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (namespace === 'messages') {
      readMessages(language).then(
        (tree) => callback(null, tree),
        (error: unknown) => callback(error as Error, false),
      );
      return;
    }
    const load = validationFiles[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error as Error, false),
    );
  },
};

/**
 * The languages whose texts are on screen or about to be: the current one and the one i18next is switching to
 * (set while that language's texts load; not in i18next's types).
 */
function languagesInUse(): string[] {
  const changingTo = (i18n as { isLanguageChangingTo?: string }).isLanguageChangingTo;
  return [i18n.language, changingTo].filter((language): language is string => Boolean(language));
}

/** Adds `areas` to a language already in the store; one still loading takes every shown area by itself. */
async function addAreas(language: string, areas: readonly Area[]): Promise<void> {
  const have = inStore.get(language);
  const missing = have ? areas.filter((area) => !have.has(area)) : [];
  if (!have || !missing.length) return;
  i18n.addResourceBundle(language, 'messages', await areasOf(language, missing), true, true);
  missing.forEach((area) => have.add(area));
}

/**
 * Loads the texts of `areas` in the languages in use, beside the page that shows them (`routes.tsx`); resolves
 * once they are in. The language may change meanwhile (the user's own replaces the browser's on the first page),
 * so it loads into each language in use until none lacks them. Before i18next has started, it only marks them,
 * and the start loads them with the shell's.
 */
export async function loadAreas(areas: readonly Area[]): Promise<void> {
  areas.forEach((area) => shown.add(area));
  if (!i18n.isInitialized) return;
  const done = new Set<string>();
  for (let todo = languagesInUse(); todo.length; todo = languagesInUse().filter((l) => !done.has(l))) {
    todo.forEach((language) => done.add(language));
    await Promise.all(todo.map((language) => addAreas(language, areas)));
  }
  // A language loaded before and not in use lacks these areas: drop its texts, so switching to it loads them all.
  const inUse = languagesInUse();
  for (const [other, have] of inStore) {
    if (inUse.includes(other) || areas.every((area) => have.has(area))) continue;
    i18n.removeResourceBundle(other, 'messages');
    // i18next also takes the namespace off its list then, and would load it in no language again (keys shown).
    i18n.options.ns = [...NAMESPACES];
    inStore.delete(other);
  }
}

/** The language used last in this browser, from its cookie; null without one. */
function savedLanguage(): Language | null {
  const prefix = `${LANGUAGE_COOKIE}=`;
  const last = document.cookie
    .split('; ')
    .find((cookie) => cookie.startsWith(prefix))
    ?.slice(prefix.length);
  return isLanguage(last) ? last : null;
}

export const i18n = i18next;

export async function initI18n(): Promise<void> {
  let saved = savedLanguage();
  i18n.on('languageChanged', (language) => {
    document.documentElement.lang = language;
    // Kept in a cookie, so the server's index.html hints at this language's texts too (decision 262); written
    // when it changes only (a cookie written costs a round trip to the browser on every start).
    if (isLanguage(language) && language !== saved) {
      document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
      saved = language;
    }
  });
  await i18n
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      // The language to start with before the user's own is known (GET me's replaces it on the first navigation).
      lng: saved ?? DEFAULT_LANGUAGE,
      // No fallback language: every key is in all four (i18n/locales.test.ts), so it would only cost bytes.
      fallbackLng: false,
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
