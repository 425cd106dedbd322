/** SPEC §9's sample rates of the error reporting (decision 237), for the server and the web app alike. */
export const ERROR_REPORTING = {
  tracesSampleRate: 0.1,
  /** Share of page loads that report a release-health session. */
  sessionSampleRate: 0.1,
  /** Replays: none of a session without an error, every one with an error. */
  replaysSessionSampleRate: 0,
  replaysOnErrorSampleRate: 1,
} as const;

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
/** A bearer token, a JWT (three base64url parts) or the value of a query parameter that carries a secret. */
const TOKEN =
  /\b(bearer\s+)\S+|\beyJ[\w-]+\.[\w-]+\.[\w-]*|\b((?:key|code|token|refresh_token|id_token_hint|login_hint|state|session_state)=)[^&\s#]+/gi;

/** An email address or a token in free text (an error's message, a breadcrumb, a source line) becomes `[redacted]`. */
export function scrubText(text: string): string {
  return text
    .replace(TOKEN, (_all, bearer?: string, param?: string) => `${bearer ?? param ?? ''}[redacted]`)
    .replace(EMAIL, '[redacted]');
}

/** An address without its query and fragment (reset keys, authorization codes). */
export const withoutQuery = (url: string): string => url.split(/[?#]/)[0] ?? url;
