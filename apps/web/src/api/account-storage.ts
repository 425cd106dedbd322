/** The current account's uuid: sessionStorage for this tab, localStorage so a new tab opens in the last one used. */
export const ACCOUNT_UUID_KEY = 'accountUuid';

/** The account this tab works in (what account-scoped requests use). */
export function getSessionAccountUuid(): string | null {
  return sessionStorage.getItem(ACCOUNT_UUID_KEY);
}

/** The stored candidates in the order the default selection reads them: this tab's, then the last used. */
export function getStoredAccountUuids(): { session: string | null; local: string | null } {
  return { session: sessionStorage.getItem(ACCOUNT_UUID_KEY), local: localStorage.getItem(ACCOUNT_UUID_KEY) };
}

export function storeAccountUuid(uuid: string): void {
  sessionStorage.setItem(ACCOUNT_UUID_KEY, uuid);
  localStorage.setItem(ACCOUNT_UUID_KEY, uuid);
}

export function clearStoredAccountUuid(): void {
  sessionStorage.removeItem(ACCOUNT_UUID_KEY);
  localStorage.removeItem(ACCOUNT_UUID_KEY);
}
