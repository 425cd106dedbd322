import type { ModuleDeps } from '../../http/route.ts';

/** The abaclik area's routes; filled by the abaclik area. */
export function registerAbaclikRoutes(_deps: ModuleDeps) {}
