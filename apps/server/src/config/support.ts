import type { SupportInfo } from '@portal/contract';
import { ConfigError, type Env } from './parse.ts';

/** support@ the public host's domain; a local start (an address or a name without a dot) gets an example one. */
function defaultSupportEmail(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  const local = !host.includes('.') || /^[\d.]+$/.test(host) || host.startsWith('[');
  return `support@${local ? 'example.com' : host.replace(/^www\./, '')}`;
}

/**
 * Support's contact data. SUPPORT_HOURS is "<first day>-<last day> HH:MM-HH:MM <time zone>" with ISO days (1 =
 * Monday), default "1-5 08:00-17:00 Europe/Zurich"; SUPPORT_RESPONSE_HOURS the first-response time per severity in
 * business hours, default "LOW=40,NORMAL=16,HIGH=8,CRITICAL=2".
 */
export function supportInfo(env: Env, publicUrl: string): SupportInfo {
  const hoursRaw = env.SUPPORT_HOURS || '1-5 08:00-17:00 Europe/Zurich';
  const hours =
    /^([1-7])-([1-7]) ([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d) ([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)$/.exec(
      hoursRaw.trim(),
    );
  if (!hours || Number(hours[1]) > Number(hours[2])) {
    throw new ConfigError(
      'SUPPORT_HOURS',
      `must look like "1-5 08:00-17:00 Europe/Zurich" (got "${hoursRaw}")`,
    );
  }
  const responseRaw = env.SUPPORT_RESPONSE_HOURS || 'LOW=40,NORMAL=16,HIGH=8,CRITICAL=2';
  const response: Record<string, number> = {};
  for (const part of responseRaw.split(',')) {
    const match = /^\s*(LOW|NORMAL|HIGH|CRITICAL)=([1-9]\d{0,3})\s*$/.exec(part);
    if (match) response[match[1]!] = Number(match[2]);
  }
  const { LOW, NORMAL, HIGH, CRITICAL } = response;
  if (LOW === undefined || NORMAL === undefined || HIGH === undefined || CRITICAL === undefined) {
    throw new ConfigError(
      'SUPPORT_RESPONSE_HOURS',
      `must name hours for LOW, NORMAL, HIGH and CRITICAL, e.g. "LOW=40,NORMAL=16,HIGH=8,CRITICAL=2" (got "${responseRaw}")`,
    );
  }
  const from = Number(hours[1]);
  const to = Number(hours[2]);
  return {
    email: env.SUPPORT_EMAIL || defaultSupportEmail(publicUrl),
    phone: env.SUPPORT_PHONE || null,
    hours: {
      days: Array.from({ length: to - from + 1 }, (_, i) => from + i),
      from: `${hours[3]}:${hours[4]}`,
      to: `${hours[5]}:${hours[6]}`,
      timeZone: hours[7]!,
    },
    responseHours: { LOW, NORMAL, HIGH, CRITICAL },
  };
}
