/** Token keys in sessionStorage (a reload keeps them); the id token is kept so logout can pass id_token_hint. */
export const TOKEN_KEY = 'kc-token';
export const REFRESH_TOKEN_KEY = 'kc-refreshToken';
export const ID_TOKEN_KEY = 'kc-idToken';

export interface StoredTokens {
  token?: string;
  refreshToken?: string;
  idToken?: string;
}

export function readTokens(storage: Storage = sessionStorage): StoredTokens {
  return {
    token: storage.getItem(TOKEN_KEY) ?? undefined,
    refreshToken: storage.getItem(REFRESH_TOKEN_KEY) ?? undefined,
    idToken: storage.getItem(ID_TOKEN_KEY) ?? undefined,
  };
}

export function writeTokens(tokens: StoredTokens, storage: Storage = sessionStorage): void {
  const set = (key: string, value: string | undefined) =>
    value ? storage.setItem(key, value) : storage.removeItem(key);
  set(TOKEN_KEY, tokens.token);
  set(REFRESH_TOKEN_KEY, tokens.refreshToken);
  set(ID_TOKEN_KEY, tokens.idToken);
}

export function clearTokens(storage: Storage = sessionStorage): void {
  writeTokens({}, storage);
}

/** The current access token, for the API client. */
export function accessToken(storage: Storage = sessionStorage): string | null {
  return storage.getItem(TOKEN_KEY);
}
