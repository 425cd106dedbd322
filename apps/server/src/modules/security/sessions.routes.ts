import { securityRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { endOthers, endSession, getSessions } from './sessions.service.ts';

/** The person's own sign-in sessions: list them, sign one out, or all but this one. */
export function registerSessionRoutes({ db, config, route }: ModuleDeps) {
  route(securityRoutes.listSignInSessions, {
    handler: async ({ user }) => getSessions(db, config, user),
  });
  route(securityRoutes.endSignInSession, {
    handler: async ({ user, params }, reply) => {
      await endSession(db, config, user, params.sessionId);
      reply.code(204);
      return null;
    },
  });
  route(securityRoutes.endOtherSignInSessions, {
    handler: async ({ user }) => ({ data: await endOthers(db, config, user) }),
  });
}
