import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COUNTDOWN_MS, IDLE_MS, idlePhase, startIdleTracker } from './idle.ts';

describe('idle phases', () => {
  it('is active for 30 minutes, then counts down one minute, then expires', () => {
    expect(idlePhase(0, IDLE_MS - 1)).toEqual({ kind: 'active' });
    expect(idlePhase(0, IDLE_MS)).toEqual({ kind: 'countdown', secondsLeft: 60 });
    expect(idlePhase(0, IDLE_MS + 59_500)).toEqual({ kind: 'countdown', secondsLeft: 1 });
    expect(idlePhase(0, IDLE_MS + COUNTDOWN_MS)).toEqual({ kind: 'expired' });
  });
});

describe('idle tracker', () => {
  let clock = 1_000_000;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
    localStorage.clear();
  });
  afterEach(() => vi.restoreAllMocks());

  it('counts pointer and keyboard activity', () => {
    const tracker = startIdleTracker(now);
    clock += 10 * 60_000;
    window.dispatchEvent(new Event('keydown'));
    expect(tracker.lastActivity()).toBe(clock);
    tracker.stop();
  });

  it('ignores activity during the countdown; only "stay" resets it', () => {
    const tracker = startIdleTracker(now);
    const start = clock;
    clock += IDLE_MS + 10_000;
    window.dispatchEvent(new Event('pointermove'));
    expect(tracker.lastActivity()).toBe(start);
    tracker.stay();
    expect(tracker.lastActivity()).toBe(clock);
    tracker.stop();
  });

  it('shares activity through localStorage for new tabs', () => {
    const tracker = startIdleTracker(now);
    clock += 60_000;
    window.dispatchEvent(new Event('wheel'));
    expect(localStorage.getItem('portal-lastActivity')).toBe(String(clock));
    tracker.stop();
  });
});
