import type { SelectOption } from './fields.tsx';

/** ISO 3166-1 alpha-2 codes in use, plus XK (Kosovo, widely used though user-assigned). */
export const COUNTRY_CODES: readonly string[] = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS XK YE YT ZA ZM ZW
`
  .trim()
  .split(/\s+/);

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
