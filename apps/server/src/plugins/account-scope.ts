import { ACCOUNT_ROLES, hasLevel, type AccountRole } from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { forbidden, HttpError, notFound } from '../http/errors.ts';
import { accessFor, auditStaffAccess } from '../modules/accounts/accounts.service.ts';

/**
 * preHandler of the area routes under /api/accounts/{accountUuid}/<area>/v1/…: the caller needs an ACCEPTED
 * membership (else 404, never revealing the account); staff act as SUPPORT and every such access is audited.
 */
export function createAccountScope(db: Db) {
  return async function accountScope(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const user = request.user;
    if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
    const { accountUuid } = request.params as { accountUuid: string };
    const access = await accessFor(db, user, accountUuid);
    if (!access) throw notFound();
    await auditStaffAccess(db, user, access, `${request.method} ${request.routeOptions.url ?? request.url}`);
    request.account = access;
  };
}

/** preHandler that refuses (403) callers whose account role is below `min` (SPEC §6 level check). */
export function requireAccountRole(min: AccountRole) {
  return async function accountRole(request: FastifyRequest): Promise<void> {
    if (!request.account) throw notFound();
    if (!hasLevel(ACCOUNT_ROLES, request.account.role, min)) throw forbidden(`This needs the ${min} role`);
  };
}
