import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { accountParamOf, apiRoutes, defineRoute, Entity, ErrorBody, type RouteDef } from '@portal/contract';
import { allApiRoutes } from '@portal/contract/all-routes';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { describeApi } from '../test/api.ts';
import { allowStaff } from '../test/support-tickets.ts';
import type { AreaModule } from '../modules/deps.ts';
import { createRouter, routeUrl, type Hook } from './route.ts';

const contractRoutes = Object.entries(allApiRoutes as Record<string, RouteDef>);

describe('contract routes', () => {
  it('give every account route a role rule, and name its account in the path', () => {
    const accountRoutes = contractRoutes.filter(([, def]) => accountParamOf(def));
    expect(accountRoutes.length).toBeGreaterThan(0);
    for (const [name, def] of accountRoutes) {
      expect(def.accountRole, `${name} has no accountRole`).toBeDefined();
      expect(routeUrl(def), name).toContain(`:${accountParamOf(def)}`);
    }
  });

  it('are refused at registration when an account route has no role rule', () => {
    const route = createRouter({ route: () => undefined } as unknown as FastifyInstance, {
      authenticate: (async () => undefined) as Hook,
      accountScope: () => async () => undefined,
    });
    const handler = async () => ({ data: null });
    const def = { ...apiRoutes.getAccount, accountRole: undefined };
    expect(() => route(def, { handler } as never)).toThrow(/must declare its accountRole/);
  });
});

describeApi('contract routes in the app', (api) => {
  it('are all registered', () => {
    const missing = contractRoutes
      .filter(([, def]) => !api.app.hasRoute({ method: def.method, url: routeUrl(def) }))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});

// Area routes as later areas add them: /api/accounts/{accountUuid}/notes/v1/notes.
const Note = Entity(Type.Object({ accountUuid: Type.String(), role: Type.String() }));
const notesRoute = defineRoute({
  method: 'GET',
  path: '/notes/v1/notes',
  summary: 'test area route',
  tags: ['test'],
  accountScoped: true,
  accountRole: { min: 'EMPLOYEE' },
  response: { 200: Note, 403: ErrorBody, 404: ErrorBody },
});
const adminNotesRoute = defineRoute({ ...notesRoute, method: 'POST', accountRole: { min: 'ADMIN' } });
const ownerNotesRoute = defineRoute({
  ...notesRoute,
  method: 'DELETE',
  accountRole: { exactly: 'OWNER', denied: 'Only the owner can clear the notes' },
});
const notesModule: AreaModule = ({ route }) => {
  for (const def of [notesRoute, adminNotesRoute, ownerNotesRoute]) {
    route(def, {
      handler: async (request) => ({
        data: { accountUuid: request.account.accountUuid, role: request.account.role },
      }),
    });
  }
};

describeApi(
  'account-scoped routes',
  (api) => {
    const path = (account: string) => `/api/accounts/${account}/notes/v1/notes`;

    it('admit accepted members only, with their role; everyone else gets the same 404 (a malformed id 400)', async () => {
      const member = await api.request('GET', path(DEMO_ACCOUNTS.muster), { as: 'employee' });
      expect(member.statusCode).toBe(200);
      expect(member.json().data).toEqual({ accountUuid: DEMO_ACCOUNTS.muster, role: 'EMPLOYEE' });
      expect((await api.request('GET', path(DEMO_ACCOUNTS.neu), { as: 'employee' })).statusCode).toBe(404);
      expect((await api.request('GET', path(DEMO_ACCOUNTS.beispiel), { as: 'employee' })).statusCode).toBe(
        404,
      );
      expect((await api.request('GET', path('x'), { as: 'employee' })).statusCode).toBe(400);
      expect((await api.request('GET', path(DEMO_ACCOUNTS.muster))).statusCode).toBe(401);
    });

    it('let staff in as SUPPORT while the customer allows it on a ticket, audited', async () => {
      await allowStaff(api, DEMO_ACCOUNTS.neu, DEMO_USERS.newowner.id);
      const staff = await api.request('GET', path(DEMO_ACCOUNTS.neu), { as: 'agent' });
      expect(staff.json().data.role).toBe('SUPPORT');
      expect((await api.audit(DEMO_ACCOUNTS.neu))[0]).toMatchObject({
        action: 'support.access',
        actor_uuid: DEMO_USERS.agent.id,
        target: 'GET /api/accounts/:accountUuid/notes/v1/notes',
      });
    });

    it('refuse (403) roles below the minimum, and all but the exact role of an exact rule', async () => {
      const employee = await api.request('POST', path(DEMO_ACCOUNTS.muster), { as: 'employee' });
      expect(employee.statusCode).toBe(403);
      expect(employee.json()).toEqual({ code: 'FORBIDDEN', message: 'This needs the ADMIN role' });
      expect((await api.request('POST', path(DEMO_ACCOUNTS.muster), { as: 'admin' })).statusCode).toBe(200);

      for (const login of ['admin', 'coach'] as const) {
        const denied = await api.request('DELETE', path(DEMO_ACCOUNTS.muster), { as: login });
        expect(denied.statusCode).toBe(403);
        expect(denied.json().message).toBe('Only the owner can clear the notes');
      }
      await allowStaff(api, DEMO_ACCOUNTS.muster, DEMO_USERS.owner.id);
      const before = (await api.audit(DEMO_ACCOUNTS.muster)).length;
      expect((await api.request('DELETE', path(DEMO_ACCOUNTS.muster), { as: 'agent' })).statusCode).toBe(403);
      expect(await api.audit(DEMO_ACCOUNTS.muster)).toHaveLength(before);
      expect((await api.request('DELETE', path(DEMO_ACCOUNTS.muster), { as: 'owner' })).statusCode).toBe(200);
    });
  },
  { modules: [notesModule] },
);
