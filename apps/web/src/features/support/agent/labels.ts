import type { TFunction } from 'i18next';

/**
 * How long someone has waited, for people: minutes under an hour, hours under two days, then days (rounded
 * down), from the time waiting began to `now`.
 */
export function waitingText(t: TFunction, since: string, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return t('supportAgent.waited.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('supportAgent.waited.hours', { count: hours });
  return t('supportAgent.waited.days', { count: Math.floor(hours / 24) });
}
