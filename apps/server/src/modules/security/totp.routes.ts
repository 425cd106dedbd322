import { securityRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { confirmEnrolment, disableTotp, regenerateRecoveryCodes, startEnrolment } from './totp.service.ts';

/** The authenticator app (TOTP) and its recovery codes; their answers are never cached (they hold secrets). */
export function registerTotpRoutes({ db, config, route, secrets, mailer }: ModuleDeps) {
  const deps = { db, config, secrets, mailer };
  route(securityRoutes.startTotp, {
    handler: async ({ user }, reply) => {
      const data = await startEnrolment(deps, user);
      reply.code(201).header('Cache-Control', 'no-store');
      return { data };
    },
  });
  route(securityRoutes.confirmTotp, {
    handler: async ({ user, body }, reply) => {
      const data = await confirmEnrolment(deps, user, body.code);
      reply.header('Cache-Control', 'no-store');
      return { data };
    },
  });
  route(securityRoutes.disableTotp, {
    handler: async ({ user, body }, reply) => {
      await disableTotp(deps, user, body.password);
      reply.code(204);
      return null;
    },
  });
  route(securityRoutes.regenerateRecoveryCodes, {
    handler: async ({ user, body }, reply) => {
      const data = await regenerateRecoveryCodes(deps, user, body.password);
      reply.header('Cache-Control', 'no-store');
      return { data };
    },
  });
}
