import type { ModuleDeps } from '../../http/route.ts';

/** The shop area's routes; filled by the shop area. */
export function registerShopRoutes(_deps: ModuleDeps) {}
