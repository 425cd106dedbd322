import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { normaliseRecoveryCode, recoveryCodeHash, TOTP_PERIOD, totpStep, totpUri } from './totp.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** A fixed clock: the start of time step 60'000'000 (in 2027). */
const STEP = 60_000_000;
const NOW = STEP * TOTP_PERIOD;
const codeAt = (step: number) => generateSync({ secret: SECRET, epoch: step * TOTP_PERIOD });

describe('TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s)', () => {
  it('matches the RFC 6238 test vector for SHA-1 (last 6 digits)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082.
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpStep(rfcSecret, '287082', { epoch: 59 })).toBe(1);
  });

  it('accepts the current step and one step on either side, not two', () => {
    expect(totpStep(SECRET, codeAt(STEP), { epoch: NOW + 10 })).toBe(STEP);
    expect(totpStep(SECRET, codeAt(STEP - 1), { epoch: NOW + 10 })).toBe(STEP - 1);
    expect(totpStep(SECRET, codeAt(STEP + 1), { epoch: NOW + 10 })).toBe(STEP + 1);
    expect(totpStep(SECRET, codeAt(STEP - 2), { epoch: NOW + 10 })).toBeNull();
    expect(totpStep(SECRET, codeAt(STEP + 2), { epoch: NOW + 10 })).toBeNull();
  });

  it('refuses a step at or before the last accepted one (no replay within the window)', () => {
    expect(totpStep(SECRET, codeAt(STEP), { epoch: NOW, lastStep: STEP })).toBeNull();
    expect(totpStep(SECRET, codeAt(STEP - 1), { epoch: NOW, lastStep: STEP })).toBeNull();
    expect(totpStep(SECRET, codeAt(STEP + 1), { epoch: NOW, lastStep: STEP })).toBe(STEP + 1);
    expect(totpStep(SECRET, codeAt(STEP), { epoch: NOW, lastStep: STEP - 1 })).toBe(STEP);
  });

  it('takes a code with spaces, refuses anything that is not six digits', () => {
    const code = codeAt(STEP);
    expect(totpStep(SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, { epoch: NOW })).toBe(STEP);
    expect(totpStep(SECRET, '', { epoch: NOW })).toBeNull();
    expect(totpStep(SECRET, 'abcdef', { epoch: NOW })).toBeNull();
    expect(totpStep(SECRET, `${code}0`, { epoch: NOW })).toBeNull();
  });

  it('names the product and the person in the otpauth URI', () => {
    const uri = totpUri(SECRET, 'Portal', 'owner@example.com');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Portal:owner%40example\.com\?/);
    expect(uri).toContain(`secret=${SECRET}`);
    expect(uri).toContain('issuer=Portal');
  });
});

describe('recovery codes', () => {
  it('hash the same however they are typed, and differently per person', () => {
    expect(normaliseRecoveryCode(' ABCDE-fghjk ')).toBe('abcdefghjk');
    expect(recoveryCodeHash('a', 'abcde-fghjk')).toBe(recoveryCodeHash('a', 'ABCDEFGHJK'));
    expect(recoveryCodeHash('a', 'abcde-fghjk')).not.toBe(recoveryCodeHash('b', 'abcde-fghjk'));
  });
});
