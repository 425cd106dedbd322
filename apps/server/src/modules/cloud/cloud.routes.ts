import type { ModuleDeps } from '../../http/route.ts';

/** The cloud area's routes; filled by the cloud area. */
export function registerCloudRoutes(_deps: ModuleDeps) {}
