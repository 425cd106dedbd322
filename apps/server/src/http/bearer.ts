/**
 * The token of an `Authorization: Bearer <token>` header, or undefined. The scheme is case-insensitive:
 * keycloak-js writes it in lower case.
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const match = typeof header === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
