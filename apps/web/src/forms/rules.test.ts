import { describe, expect, it, beforeAll } from 'vitest';
import Type from 'typebox';
import type { i18n } from 'i18next';
import { validate, type Rules } from './validate.ts';
import type { RuleContext } from './rules.ts';
import { createTestI18n, validationFiles } from '@/testing/i18n.ts';

let i18n: i18n;
beforeAll(async () => {
  i18n = await createTestI18n('de');
});

function ctx(values: Record<string, unknown> = {}, lng = 'de'): RuleContext {
  return { field: 'Firmenname', name: 'field', values, t: i18n.getFixedT(lng, 'validation') };
}
const check = (value: unknown, rules: Rules, values?: Record<string, unknown>) =>
  validate(value, rules, ctx(values));

describe('required', () => {
  it.each([undefined, null, '', '   ', '\t\n', false, []])('fails for %j', (value) => {
    expect(check(value, 'required')).toBe('Dieses Feld ist erforderlich');
  });
  it.each(['a', ' a ', 0, true, ['x'], { a: 1 }])('passes for %j', (value) => {
    expect(check(value, 'required')).toBe(true);
  });
});

describe('email', () => {
  it.each(['', null, undefined, []])('accepts empty %j', (value) => expect(check(value, 'email')).toBe(true));
  it.each(['anna@example.com', 'a.b+c@sub.example.ch', ' anna@example.com '])('accepts %s', (value) =>
    expect(check(value, 'email')).toBe(true),
  );
  it.each(['anna', 'anna@', '@example.com', 'anna@example', 'an na@example.com', 'anna@exa_mple.com'])(
    'refuses %s',
    (value) => expect(check(value, 'email')).toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein'),
  );
  it('checks every item of a list', () => {
    expect(check(['a@example.com', 'b@example.com'], 'email')).toBe(true);
    expect(check(['a@example.com', 'nope'], 'email')).toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein');
  });
});

describe('url', () => {
  it('accepts empty and web addresses', () => {
    expect(check('', 'url')).toBe(true);
    expect(check('https://example.com/path?q=1', 'url')).toBe(true);
    expect(check('http://localhost:8080', 'url')).toBe(true);
  });
  it.each(['example.com', 'not a url', 'javascript:alert(1)', 'mailto:a@example.com'])(
    'refuses %s',
    (value) => expect(check(value, 'url')).toBe('Bitte geben Sie eine gültige URL ein'),
  );
  it('applies an optional pattern', () => {
    expect(check('https://shop.example.com', 'url:https://.*')).toBe(true);
    expect(check('http://shop.example.com', 'url:https://.*')).toBe('Bitte geben Sie eine gültige URL ein');
    expect(check('https://a.example.com', { url: /^https:\/\/a\./ })).toBe(true);
  });
});

describe('confirmed', () => {
  it('compares with the named field', () => {
    expect(check('secret', 'confirmed:password', { password: 'secret' })).toBe(true);
    expect(check('secrets', 'confirmed:password', { password: 'secret' })).toBe(
      'Die Eingaben stimmen nicht überein',
    );
    expect(check('', 'confirmed:password', { password: '' })).toBe(true);
    expect(check('', 'confirmed:password', { password: 'x' })).toBe('Die Eingaben stimmen nicht überein');
  });
  it('defaults to <name>_confirmation', () => {
    expect(check('x', 'confirmed', { field_confirmation: 'x' })).toBe(true);
  });
});

describe('length, max, minLength', () => {
  it('length is exact and uses strictLength', () => {
    expect(check('1234', 'length:4')).toBe(true);
    expect(check('123', 'length:4')).toBe('Die Länge des eingegebenen Feldes ist ungültig');
    expect(check('12345', { length: 4 })).toBe('Die Länge des eingegebenen Feldes ist ungültig');
    expect(check('', 'length:4')).toBe(true);
  });
  it('max counts characters and uses maxLength', () => {
    expect(check('a'.repeat(120), 'max:120')).toBe(true);
    expect(check('a'.repeat(121), 'max:120')).toBe('Sie dürfen maximal 120 Zeichen eingeben');
    expect(check('äöü😀', 'max:4')).toBe(true);
  });
  it('minLength', () => {
    expect(check('abc', 'minLength:3')).toBe(true);
    expect(check('ab', 'minLength:3')).toBe('Sie müssen mindestens 3 Zeichen eingeben');
  });
});

describe('number, integer, capital', () => {
  it.each(['12', '-3', '1.5', '1,5', '+0.25', 42, 1.5])('number accepts %j', (v) =>
    expect(check(v, 'number')).toBe(true),
  );
  it.each(['12a', '1.2.3', 'abc', '1 000', Number.NaN])('number refuses %j', (v) =>
    expect(check(v, 'number')).toBe('Dieses Feld darf nur Zahlen enthalten'),
  );
  it.each(['12', '-3', 7])('integer accepts %j', (v) => expect(check(v, 'integer')).toBe(true));
  it.each(['1.5', '1,0', 'x', 2.5])('integer refuses %j', (v) =>
    expect(check(v, 'integer')).toBe('Dieses Feld darf nur Ganzzahlen enthalten'),
  );
  it('capital refuses lower-case letters', () => {
    expect(check('ABC ÄÖÜ 12', 'capital')).toBe(true);
    expect(check('ABc', 'capital')).toBe('Dieses Feld darf nur Grossbuchstaben enthalten');
    expect(check('STRAßE', 'capital')).toBe('Dieses Feld darf nur Grossbuchstaben enthalten');
  });
});

describe('exclude, notEmpty, pattern', () => {
  it('exclude names the offending character', () => {
    expect(check('a-b', 'exclude:<,>')).toBe(true);
    expect(check('a>b', 'exclude:<,>')).toBe('Das Zeichen > ist nicht erlaubt');
    expect(check('a,b', { exclude: [','] })).toBe('Das Zeichen , ist nicht erlaubt');
  });
  it('notEmpty needs a selection', () => {
    expect(check([], 'notEmpty')).toBe('Bitte wählen Sie mindestens einen Wert aus');
    expect(check(null, 'notEmpty')).toBe('Bitte wählen Sie mindestens einen Wert aus');
    expect(check(['a'], 'notEmpty')).toBe(true);
  });
  it('pattern matches the whole value; commas stay part of it', () => {
    expect(check('8000', 'pattern:[0-9]{4,5}')).toBe(true);
    expect(check('80000x', 'pattern:[0-9]{4,5}')).toBe('Ungültiges Format');
    expect(check('CHE-123', { pattern: /^CHE-\d+$/ })).toBe(true);
    expect(check('abc', 'pattern:/B/i')).toBe(true);
    expect(check('', 'pattern:[0-9]+')).toBe(true);
  });
});

describe('rule forms and order', () => {
  it('stops at the first failing rule', () => {
    expect(check('', 'required|email|max:5')).toBe('Dieses Feld ist erforderlich');
    expect(check('abcdefgh', 'required|email|max:5')).toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein');
    expect(check('abcdefgh', 'required|max:5|email')).toBe('Sie dürfen maximal 5 Zeichen eingeben');
  });
  it('object form keeps key order and skips false', () => {
    expect(check('abcdefgh', { required: true, max: 5, email: true })).toBe(
      'Sie dürfen maximal 5 Zeichen eingeben',
    );
    expect(check('', { required: false, email: true })).toBe(true);
  });
  it('function rules: true passes, a string is the message, false is the default message', () => {
    expect(check('x', () => true)).toBe(true);
    expect(check('x', () => 'Eigene Meldung')).toBe('Eigene Meldung');
    expect(check('x', () => false)).toBe('Firmenname ist ungültig.');
    expect(check('x', (value, c) => value === c.values?.other || 'anders', { other: 'y' })).toBe('anders');
  });
  it('schema rules map schema errors onto rule messages', () => {
    const schema = Type.String({ minLength: 1, maxLength: 5, pattern: '^[a-z]+$' });
    expect(check('', schema)).toBe('Dieses Feld ist erforderlich');
    expect(check('abcdefg', schema)).toBe('Sie dürfen maximal 5 Zeichen eingeben');
    expect(check('ABC', schema)).toBe('Ungültiges Format');
    expect(check('abc', schema)).toBe(true);
    expect(check('x', Type.String({ format: 'email' }))).toBe(
      'Bitte geben Sie eine gültige E-Mail-Adresse ein',
    );
    expect(check(1.5, Type.Integer())).toBe('Dieses Feld darf nur Ganzzahlen enthalten');
    expect(check('c', Type.Union([Type.Literal('a'), Type.Literal('b')]))).toBe('Firmenname ist ungültig.');
    expect(check('c', { enum: ['a', 'b'] })).toBe('Firmenname ist ungültig.');
  });
  it('lists mix forms, in order', () => {
    expect(check('ab', ['required', { minLength: 3 }, () => 'never'])).toBe(
      'Sie müssen mindestens 3 Zeichen eingeben',
    );
    expect(check('abc', ['required', { minLength: 3 }, () => 'last'])).toBe('last');
  });
  it('an unknown rule is a programming error', () => {
    expect(() => check('x', 'requird')).toThrow(/unknown validation rule "requird"/);
  });
});

describe('messages per locale', () => {
  const locales = ['de', 'en', 'fr', 'it'] as const;
  const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
  it('every locale has the same keys', () => {
    const keys = (l: (typeof locales)[number]) =>
      [...new Set(Object.keys(validationFiles[l]).map(base))].sort();
    for (const l of locales) expect(keys(l)).toEqual(keys('de'));
    expect(keys('de')).toEqual(
      expect.arrayContaining([
        'default',
        'required',
        'email',
        'url',
        'confirmed',
        'number',
        'integer',
        'capital',
      ]),
    );
  });
  it('no locale reuses the German text', () => {
    for (const l of ['en', 'fr', 'it'] as const)
      for (const [key, text] of Object.entries(validationFiles[l]))
        expect(text, `${l}.${key}`).not.toBe(validationFiles.de[key]);
  });
  it.each([
    ['de', 'Firmenname ist ungültig.', 'Sie dürfen maximal 3 Zeichen eingeben'],
    ['en', 'Firmenname is not valid.', 'You may enter at most 3 characters'],
    ['fr', 'Firmenname n’est pas valide.', 'Vous pouvez saisir au maximum 3 caractères'],
    ['it', 'Firmenname non è valido.', 'Può inserire al massimo 3 caratteri'],
  ])('%s texts', (lng, defaultText, maxText) => {
    const c = ctx({}, lng);
    expect(validate('x', () => false, c)).toBe(defaultText);
    expect(validate('abcd', 'max:3', c)).toBe(maxText);
  });
  it.each([
    ['de', 1, '1 Feld ist nicht korrekt'],
    ['de', 3, '3 Felder sind nicht korrekt'],
    ['en', 1, '1 field is not correct'],
    ['en', 2, '2 fields are not correct'],
    ['fr', 1, '1 champ n’est pas correct'],
    ['fr', 2, '2 champs ne sont pas corrects'],
    ['it', 1, '1 campo non è corretto'],
    ['it', 4, '4 campi non sono corretti'],
  ])('fieldIsNotCorrect %s %d', (lng, count, text) => {
    expect(i18n.getFixedT(lng, 'validation')('fieldIsNotCorrect', { count })).toBe(text);
  });
});
