export * from './common.ts';
export * from './route.ts';
export * from './users.ts';
export * from './accounts.ts';
export * from './config.ts';
export * from './logs.ts';

import { usersRoutes } from './users.ts';
import { accountsRoutes } from './accounts.ts';
import { configRoutes } from './config.ts';
import { logsRoutes } from './logs.ts';

/** Every API route; a server test checks that the app registers each of them, account routes with a role rule. */
export const apiRoutes = { ...configRoutes, ...usersRoutes, ...accountsRoutes, ...logsRoutes };
