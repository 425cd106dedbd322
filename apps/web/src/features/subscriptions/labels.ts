import type { Plan } from '@portal/contract';

/** A plan's name by its code; a code the catalogue no longer has is shown as it is. */
export function planName(plans: readonly Plan[], code: string): string {
  return plans.find((plan) => plan.code === code)?.name ?? code;
}
