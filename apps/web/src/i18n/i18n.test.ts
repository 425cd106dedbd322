import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The app's one i18next and the areas it holds are module state: these tests start from a page load of their own.
vi.resetModules();
const { AREAS } = await import('./areas.ts');
const { i18n, initI18n, loadAreas } = await import('./i18n.ts');

type Loader = () => Promise<unknown>;
const files = AREAS.lessons as Record<string, Loader>;
const originals = { ...files };

/** Holds the lesson texts of `language` until the returned release is called, so a test decides who finishes first. */
function holdLessons(language: string): () => void {
  const file = `./locales/${language}/messages.json`;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  files[file] = async () => {
    await gate;
    return originals[file]!();
  };
  return release;
}

/**
 * The first page opens in the browser's last language while GET me answers with the user's own: the page's area
 * and the switch to the user's language load at the same time. Whatever order they finish in, the page's texts
 * must be there in the language the app ends in (a French owner once saw a lesson page without its title).
 */
// The browser's last language, as an earlier page left it: the app starts in it.
document.cookie = 'portal-language=it; Path=/';

/** What the app wrote to document.cookie. */
const cookieWrites = vi.spyOn(Document.prototype, 'cookie', 'set');

describe('texts loaded per area while the language changes', () => {
  beforeAll(async () => {
    cookieWrites.mockClear();
    await initI18n();
  });

  it("starts in the cookie's language and keeps every change in it, for the server's hints", async () => {
    expect(i18n.language).toBe('it');
    // Starting in the cookie's language writes nothing.
    expect(cookieWrites).not.toHaveBeenCalled();
    await i18n.changeLanguage('fr');
    expect(document.cookie).toContain('portal-language=fr');
    expect(document.cookie).not.toContain('portal-language=it');
    await i18n.changeLanguage('fr');
    expect(cookieWrites).toHaveBeenCalledTimes(1);
  });
  afterEach(() => {
    Object.assign(files, originals);
  });

  it('keeps the page area when the switch finishes before the area', async () => {
    await i18n.changeLanguage('de');
    const release = holdLessons('de');
    const area = loadAreas(['lessons']);
    await i18n.changeLanguage('fr');
    release();
    await area;
    expect(i18n.language).toBe('fr');
    expect(i18n.t('lessons.title')).toBe('Leçons');
  });

  it('keeps the page area when the area finishes before the switch', async () => {
    await i18n.changeLanguage('it');
    const release = holdLessons('en');
    const english = i18n.changeLanguage('en');
    await loadAreas(['lessons']);
    release();
    await english;
    expect(i18n.language).toBe('en');
    expect(i18n.t('lessons.title')).toBe('Lessons');
  });

  it('loads the texts of a language dropped meanwhile again when switched back to', async () => {
    await i18n.changeLanguage('it');
    await i18n.changeLanguage('de');
    // A new area while German is shown: the Italian texts lack it and are dropped.
    await loadAreas(['logs']);
    await i18n.changeLanguage('it');
    expect(i18n.t('routes.dashboard')).toBe('Panoramica');
    expect(i18n.t('logs.title')).toBe('Registro');
  });
});
