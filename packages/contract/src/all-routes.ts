import { accountExportRoutes } from './account-export.ts';
import { apiRoutes } from './index.ts';
import { lessonAuthoringRoutes } from './lesson-authoring.ts';

/**
 * Every API route, for the server's checks over all of them (registration, XSRF, fuzzing): the index's `apiRoutes`
 * and the routes kept out of the index so that the web bundles them only in the chunk that uses them (the index's
 * modules all land in the contract chunk every page loads; decision 240).
 */
export const allApiRoutes = { ...apiRoutes, ...accountExportRoutes, ...lessonAuthoringRoutes };
