/** The part of keycloak-js the refresh loop needs (it checks every 3 s and refreshes within 70 s of expiry). */
export interface RefreshableClient {
  /** True when the token expires within `minValidity` seconds. */
  isTokenExpired(minValidity?: number): boolean;
  updateToken(minValidity: number): Promise<boolean>;
}

export interface RefreshHandlers {
  onRefreshed(): void;
  /** The session is over: the provider answered 400, or the token really expired while refreshes failed. */
  onSessionEnded(reason: 'rejected' | 'expired'): void;
}

export const REFRESH_CHECK_MS = 3000;
export const REFRESH_MIN_VALIDITY_S = 70;

function isBadRequest(error: unknown): boolean {
  return (error as { response?: { status?: number } } | null)?.response?.status === 400;
}

/**
 * Checks the token every 3 s and refreshes it when it expires within 70 s. A 400 from the token endpoint ends
 * the session; other failures (network, 5xx) keep the tokens and retry at the next check until the token has
 * really expired. Returns a stop function.
 */
export function startTokenRefresh(client: RefreshableClient, handlers: RefreshHandlers): () => void {
  let busy = false;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  const check = async () => {
    if (busy || stopped || !client.isTokenExpired(REFRESH_MIN_VALIDITY_S)) return;
    busy = true;
    try {
      await client.updateToken(REFRESH_MIN_VALIDITY_S);
      if (!stopped) handlers.onRefreshed();
    } catch (error) {
      if (stopped) return;
      if (isBadRequest(error)) {
        stop();
        handlers.onSessionEnded('rejected');
      } else if (client.isTokenExpired(0)) {
        stop();
        handlers.onSessionEnded('expired');
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), REFRESH_CHECK_MS);
  return stop;
}
