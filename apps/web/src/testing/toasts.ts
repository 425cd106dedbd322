import { vi } from 'vitest';
import { toast } from '@/ui/toast-store.ts';

/** Keeps toasts off the screen and lets a test assert on them: `expect(toast.success).toHaveBeenCalledWith(…)`. */
export function watchToasts(): void {
  vi.spyOn(toast, 'success').mockReturnValue(0);
  vi.spyOn(toast, 'error').mockReturnValue(0);
}
