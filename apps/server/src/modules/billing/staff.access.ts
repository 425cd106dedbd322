// Payments, staff side (bank files, credits, invoices across accounts): only staff with the billing role
// (SUPPORT_MANAGER and above) may do any of it; customers and support agents alike are refused.
import { BILLING_STAFF_ROLE, USER_ROLES, hasLevel } from '@portal/contract';
import { forbidden } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';

/** Refuses (403) a caller below the billing staff role; customers and support agents alike. */
export function requireBillingStaff(user: PortalUser): void {
  if (!hasLevel(USER_ROLES, user.userRole, BILLING_STAFF_ROLE)) {
    throw forbidden('Handling payments needs the SUPPORT_MANAGER role');
  }
}
