import { beforeEach, describe, expect, it } from 'vitest';
import { clearInitFailures, recordInitFailure } from './init-failures.ts';

describe('init failures', () => {
  beforeEach(() => sessionStorage.clear());

  it('counts failures within one minute', () => {
    expect(recordInitFailure(1_000)).toBe(1);
    expect(recordInitFailure(30_000)).toBe(2);
  });

  it('forgets failures older than a minute', () => {
    expect(recordInitFailure(1_000)).toBe(1);
    expect(recordInitFailure(70_000)).toBe(1);
  });

  it('starts over after a success', () => {
    recordInitFailure(1_000);
    clearInitFailures();
    expect(recordInitFailure(2_000)).toBe(1);
  });
});
