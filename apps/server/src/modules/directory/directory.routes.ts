import { directoryRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { searchDirectory } from './directory.service.ts';

/**
 * The account directory, staff side, across accounts: the caller's user role decides (the service refuses below
 * SUPPORT with 403 and leaves out of each summary what the role may not see).
 */
export function registerDirectoryRoutes({ db, route, config }: ModuleDeps) {
  route(directoryRoutes.searchDirectory, {
    handler: async (request) => searchDirectory(db, config.billing, request.user, request.query),
  });
}
