import { securityRoutes } from '@portal/contract';
import type { ModuleDeps } from '../../http/route.ts';
import { getOverview } from './security.service.ts';
import { registerTotpRoutes } from './totp.routes.ts';

/**
 * The signed-in person's own sign-in security. The credentials live in the embedded sign-in service (`idp/`); these
 * routes are its API for the settings page. With an external Keycloak they answer that its account console keeps
 * them.
 */
export function registerSecurityRoutes(deps: ModuleDeps) {
  const { db, config, route } = deps;
  route(securityRoutes.getSecurityOverview, {
    handler: async ({ user }) => ({ data: await getOverview(db, config, user) }),
  });
  registerTotpRoutes(deps);
}
