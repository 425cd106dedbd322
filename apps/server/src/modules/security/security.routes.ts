import { securityRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { originOf } from '../../idp/email-change.ts';
import {
  cancelOwnEmailChange,
  changeOwnPassword,
  getEmailChange,
  requestOwnEmailChange,
} from './credentials.service.ts';
import { registerMyDataRoutes } from './my-data.routes.ts';
import { registerPasskeyRoutes } from './passkeys.routes.ts';
import { getOverview, ownIdentity } from './security.service.ts';
import { registerSessionRoutes } from './sessions.routes.ts';
import { listSignIns } from './sign-ins.service.ts';
import { registerTotpRoutes } from './totp.routes.ts';

/**
 * The signed-in person's own sign-in security. The credentials live in the embedded sign-in service (`idp/`); these
 * routes are its API for the settings page. With an external Keycloak they answer that its account console keeps
 * them.
 */
export function registerSecurityRoutes(deps: ModuleDeps) {
  const { db, config, route, mailer } = deps;
  const credentials = { db, config, mailer };

  route(securityRoutes.getSecurityOverview, {
    handler: async ({ user }) => ({ data: await getOverview(db, config, user) }),
  });

  route(securityRoutes.changePassword, {
    handler: async (request, reply) => {
      await changeOwnPassword(credentials, request.user, request.body, originOf(request));
      reply.code(204);
      return null;
    },
  });

  route(securityRoutes.getEmailChange, {
    handler: async ({ user }) => ({ data: await getEmailChange(credentials, user) }),
  });

  route(securityRoutes.requestEmailChange, {
    handler: async (request, reply) => {
      const data = await requestOwnEmailChange(credentials, request.user, request.body, originOf(request));
      reply.code(202);
      return { data };
    },
  });

  route(securityRoutes.cancelEmailChange, {
    handler: async ({ user }, reply) => {
      await cancelOwnEmailChange(credentials, user);
      reply.code(204);
      return null;
    },
  });

  route(securityRoutes.listSignIns, {
    handler: async ({ user, query }) => {
      const identity = await ownIdentity(credentials, user);
      return listSignIns(db, identity.id, query);
    },
  });

  registerSessionRoutes(deps);
  registerPasskeyRoutes(deps);
  registerTotpRoutes(deps);
  registerMyDataRoutes(deps);
}
