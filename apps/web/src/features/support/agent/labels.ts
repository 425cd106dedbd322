import type { TFunction } from 'i18next';
import { formatNumber } from '@/i18n/format.ts';

const oneDecimal = (value: number) => formatNumber(value, undefined, { maximumFractionDigits: 1 });

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

/** A file size for people: bytes, kB or MB with at most one decimal, in the interface language's format. */
export function sizeText(t: TFunction, bytes: number): string {
  if (bytes < 1024) return t('supportAgent.size.bytes', { count: bytes });
  if (bytes < 1024 * 1024) return t('supportAgent.size.kb', { value: oneDecimal(bytes / 1024) });
  return t('supportAgent.size.mb', { value: oneDecimal(bytes / 1024 / 1024) });
}
