import { COUNTRY_CODES } from '@portal/contract';
import type { SelectOption } from './fields.tsx';

/** Countries listed first: the portal's home market and its neighbours. */
const FIRST = ['CH', 'LI', 'DE', 'AT', 'FR', 'IT'];

/** Country options with names in the interface language (Intl.DisplayNames), home market first, then A–Z. */
export function countryOptions(language: string): SelectOption[] {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const option = (code: string) => ({ value: code, label: names.of(code) ?? code });
  const rest = COUNTRY_CODES.filter((code) => !FIRST.includes(code))
    .map(option)
    .sort((a, b) => a.label.localeCompare(b.label, language));
  const first = FIRST.map((code, index) => ({ ...option(code), divider: index === FIRST.length - 1 }));
  return [...first, ...rest];
}

/**
 * The browser's region when it is one of the home-market countries ("de-AT" → AT), else Switzerland: an "en-US"
 * browser says little about where a Swiss company sits.
 */
export function defaultCountry(locales: readonly string[] = navigator.languages): string {
  for (const locale of locales) {
    try {
      const region = new Intl.Locale(locale).region;
      if (region && FIRST.includes(region)) return region;
    } catch {
      // not a valid locale tag
    }
  }
  return 'CH';
}
