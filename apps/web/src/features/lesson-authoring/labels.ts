import type { TFunction } from 'i18next';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { LessonState } from '@portal/contract/lesson-authoring';

/** The dot of each lesson state (DotChip). */
export const STATE_COLORS: Record<LessonState, SvgIconProps['color']> = {
  draft: 'disabled',
  published: 'success',
  changed: 'warning',
  unpublished: 'disabled',
};

/** The server's rule keys of this area (courseOrderStale…), in words; other keys through the validation texts. */
export function ruleText(t: TFunction, key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (key.startsWith('course')) return t(`lessonAuthoring.rules.${key}`, { defaultValue: key });
  return t(key, { ns: 'validation', defaultValue: key, field: '' });
}
