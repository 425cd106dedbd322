// The security area's data layer (settings/users, tab "Sicherheit"; see features/accounts/api.ts for the shape).
import { queryOptions } from '@tanstack/react-query';
import { securityRoutes } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';

/** The first key of every security query: a change to a second factor invalidates them all at once. */
export const SECURITY_KEY = 'security';

/** Who keeps the person's sign-in (embedded service or external Keycloak) and their second factors. */
export const securityOverviewQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'overview'],
  queryFn: ({ signal }) =>
    apiRequest(securityRoutes.getSecurityOverview, { signal }).then(({ data }) => data),
});
