import { accountParamOf, isUnsafeMethod, mayCall, type RouteDef } from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import { accessFor, auditStaffAccess } from '../access/accounts.ts';
import { assertTwoFactor } from '../access/two-factor.ts';
import type { Db } from '../db/client.ts';
import { forbidden, HttpError, notFound } from '../http/errors.ts';
import type { Hook } from '../http/route.ts';

/** Why `mayCall` refused: staff change only declared support actions; everyone else lacks the rule's role. */
function refusal(route: RouteDef, viaStaff: boolean): HttpError {
  if (viaStaff && isUnsafeMethod(route.method) && !route.supportAction) {
    return new HttpError(403, 'STAFF_READ_ONLY', 'Support staff may read this account but not change it');
  }
  const rule = route.accountRole!;
  return forbidden(rule.denied ?? `This needs the ${'exactly' in rule ? rule.exactly : rule.min} role`);
}

/**
 * The preHandler of every account route (the router adds it from the route's contract): the caller needs an
 * ACCEPTED membership of the account named by the route's account parameter (else 404, never revealing the
 * account; staff act as SUPPORT while a ticket allows it) and `mayCall` must pass (else 403). Staff access that
 * passes is audited. The checked access is put on the request for the handler.
 */
export function createAccountScope(db: Db) {
  return (route: RouteDef): Hook => {
    const param = accountParamOf(route)!;
    return async function accountScope(request: FastifyRequest): Promise<void> {
      const user = request.user;
      if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
      const accountUuid = (request.params as Record<string, string>)[param]!;
      const access = await accessFor(db, user, accountUuid);
      if (!access) throw notFound();
      if (!mayCall(route, access.role)) throw refusal(route, access.viaStaff);
      // The account's areas need a second factor when its rule says so; the account itself (read, leave) does not.
      if (route.accountScoped) assertTwoFactor(access);
      await auditStaffAccess(
        db,
        user,
        access,
        `${request.method} ${request.routeOptions.url ?? request.url}`,
      );
      request.account = access;
    };
  };
}
