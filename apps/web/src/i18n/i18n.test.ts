import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n, loadAreas } from './i18n.ts';

/**
 * The first page opens in the browser's last language while GET me answers with the user's own: the page's area
 * and the switch to the user's language load at the same time. Whatever order they finish in, the page's texts
 * must be there in the language the app ends in (a French owner once saw a lesson page without its title).
 */
describe('texts loaded per area while the language changes', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it.each([
    ['the area load starts first', true],
    ['the language switch starts first', false],
  ])('keeps the page area in the new language when %s', async (_, areaFirst) => {
    await i18n.changeLanguage('de');
    const area = () => loadAreas(['lessons']);
    const french = () => i18n.changeLanguage('fr');
    await Promise.all(areaFirst ? [area(), french()] : [french(), area()]);
    expect(i18n.language).toBe('fr');
    expect(i18n.t('lessons.title')).toBe('Leçons');
  });
});
