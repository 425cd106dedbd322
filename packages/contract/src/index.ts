export * from './common.ts';
export * from './route.ts';
export * from './users.ts';
export * from './accounts.ts';

import { usersRoutes } from './users.ts';
import { accountsRoutes } from './accounts.ts';

/** Every API route, for registration checks and the OpenAPI document. */
export const apiRoutes = { ...usersRoutes, ...accountsRoutes };
