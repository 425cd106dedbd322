import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import {
  checkPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordFieldError,
  passwordProblemText,
} from './password-policy.ts';

const owner = { email: 'anna.meier@example.com', name: 'Anna Müller' };

describe('password policy', () => {
  it('refuses passwords shorter than 12 or longer than 128 characters, counting characters, not bytes', async () => {
    expect(await checkPassword('12345678', owner)).toEqual({ reason: 'tooShort', min: PASSWORD_MIN_LENGTH });
    expect(await checkPassword('password', owner)).toEqual({ reason: 'tooShort', min: 12 });
    // 11 characters, 22 bytes in UTF-8.
    expect(await checkPassword('äöüÄÖÜßéèàç', owner)).toEqual({ reason: 'tooShort', min: 12 });
    expect(await checkPassword('x'.repeat(129), owner)).toEqual({
      reason: 'tooLong',
      max: PASSWORD_MAX_LENGTH,
    });
  });

  it('refuses what the estimator rates weak, with its hint', async () => {
    expect(await checkPassword('passwordpassword', owner)).toEqual({ reason: 'tooWeak', hint: 'repeat' });
    expect(await checkPassword('Qwertzuiop1234', owner)).toEqual({ reason: 'tooWeak', hint: 'keyboard' });
    expect(await checkPassword('password1234', owner)).toMatchObject({ reason: 'tooWeak', hint: 'common' });
    // Common words of the portal's languages, not only English ones.
    expect(await checkPassword('Sommerferien2024', owner)).toMatchObject({ reason: 'tooWeak' });
    expect(await checkPassword('motdepasse123', owner)).toMatchObject({ reason: 'tooWeak' });
  });

  it('refuses the email local part and the name, ignoring case, accents and separators', async () => {
    expect(await checkPassword(owner.email, owner)).toEqual({ reason: 'containsEmail' });
    expect(await checkPassword('ANNAMEIER-1987!x', owner)).toEqual({ reason: 'containsEmail' });
    expect(await checkPassword('Tulpe-Meier-Nebel-42', owner)).toEqual({ reason: 'containsEmail' });
    expect(await checkPassword('Mueller-or-MULLER-7x', owner)).toEqual({ reason: 'containsName' });
    expect(await checkPassword('Müller2026Zürich', owner)).toEqual({ reason: 'containsName' });
  });

  it('ignores pieces shorter than four characters, which occur in too many good passwords', async () => {
    const short = { email: 'li.bo@example.com', name: 'Li Bo' };
    expect(await checkPassword('Kiesel-Ampel-Gurke-19-Li', short)).toBeUndefined();
  });

  it('accepts a strong password, also without knowing whose it is', async () => {
    expect(await checkPassword('Kiesel-Ampel-Gurke-19', owner)).toBeUndefined();
    expect(await checkPassword('Kiesel-Ampel-Gurke-19')).toBeUndefined();
  });

  it('accepts the demo password for every demo login', async () => {
    for (const user of Object.values(DEMO_USERS)) {
      expect(await checkPassword(DEMO_PASSWORD, user), user.email).toBeUndefined();
    }
  });

  it('gives an API route the 422 field error of the one error scheme', () => {
    const error = passwordFieldError('newPassword', { reason: 'tooWeak', hint: 'repeat' });
    expect(error).toMatchObject({
      statusCode: 422,
      code: 'VALIDATION_FAILED',
      fields: { newPassword: 'is too easy to guess: repeated characters or words are easy to guess' },
    });
    expect(passwordProblemText({ reason: 'tooShort', min: 12 })).toBe('must be at least 12 characters long');
    expect(passwordProblemText({ reason: 'containsName' })).toBe('must not contain your name');
  });
});
