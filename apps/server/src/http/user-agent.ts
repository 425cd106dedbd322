import Bowser from 'bowser';

/** What people are shown of a user agent (logs, sign-in history, sessions, security mails), parsed with bowser. */

/** Browser with its major version ("Firefox 133") and system ("Windows 10"), each null when the agent does not tell. */
export function describeUserAgent(userAgent: string | null | undefined): {
  browser: string | null;
  system: string | null;
} {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
  const system = parsed.os.name ? [parsed.os.name, parsed.os.versionName].filter(Boolean).join(' ') : null;
  return { browser, system };
}

/**
 * "Firefox 133 · Windows": browser, its major version and the operating system; for a client no browser (a script,
 * "curl/8.5.0"), its first product token; null without a user agent.
 */
export function shortBrowser(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  let short = browserCache.get(userAgent);
  if (short === undefined) {
    short = parseBrowser(userAgent);
    // A log holds few distinct user agents; parsing each once keeps a million-row export fast. Bounded.
    if (browserCache.size >= 1_000) browserCache.clear();
    browserCache.set(userAgent, short);
  }
  return short;
}

const browserCache = new Map<string, string | null>();

function parseBrowser(userAgent: string): string | null {
  const parsed = Bowser.parse(userAgent);
  const name = parsed.browser.name;
  const major = parsed.browser.version?.split('.')[0];
  const browser = name ? [name, major].filter(Boolean).join(' ') : null;
  const parts = [browser, parsed.os.name].filter(Boolean);
  if (parts.length) return parts.join(' · ');
  return userAgent.split(/\s/)[0]!.slice(0, 40) || null;
}

/**
 * What makes a browser "the same" (for the new-browser mail): browser, system and device type, without versions
 * (an update is not a new browser).
 */
export function browserKey(userAgent: string | null | undefined): string {
  const parsed = Bowser.parse(userAgent || 'unknown');
  return [parsed.browser.name ?? '?', parsed.os.name ?? '?', parsed.platform.type ?? '?'].join('|');
}
