import { allowsRole, type AccountRoleRule } from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import { accessFor, auditStaffAccess } from '../access/accounts.ts';
import { assertTwoFactor } from '../access/two-factor.ts';
import type { Db } from '../db/client.ts';
import { forbidden, HttpError, notFound } from '../http/errors.ts';
import type { Hook } from '../http/route.ts';

function deniedMessage(rule: AccountRoleRule): string {
  return rule.denied ?? `This needs the ${'exactly' in rule ? rule.exactly : rule.min} role`;
}

/**
 * The preHandler of every account route (the router adds it from the route's contract): the caller needs an
 * ACCEPTED membership of the account named by path parameter `param` (else 404, never revealing the account;
 * staff act as SUPPORT) and a role the route's rule allows (else 403). Staff access that passes is audited.
 * The checked access is put on the request for the handler.
 */
export function createAccountScope(db: Db) {
  return (param: string, rule: AccountRoleRule, options: { areaRoute?: boolean } = {}): Hook =>
    async function accountScope(request: FastifyRequest): Promise<void> {
      const user = request.user;
      if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
      const accountUuid = (request.params as Record<string, string>)[param]!;
      const access = await accessFor(db, user, accountUuid);
      if (!access) throw notFound();
      if (!allowsRole(rule, access.role)) throw forbidden(deniedMessage(rule));
      // The account's areas need a second factor when its rule says so; the account itself (read, leave) does not.
      if (options.areaRoute) assertTwoFactor(access);
      await auditStaffAccess(
        db,
        user,
        access,
        `${request.method} ${request.routeOptions.url ?? request.url}`,
      );
      request.account = access;
    };
}
