import type { TFunction } from 'i18next';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { Announcement, AnnouncementKind, AnnouncementStatus } from '@portal/contract';

/** The dot of each kind and state (DotChip). */
export const KIND_COLORS: Record<AnnouncementKind, SvgIconProps['color']> = {
  info: 'info',
  maintenance: 'warning',
  incident: 'error',
};
export const STATUS_COLORS: Record<AnnouncementStatus, SvgIconProps['color']> = {
  draft: 'disabled',
  published: 'success',
  withdrawn: 'error',
};

/** Who an announcement is for, in a few words: "Alle Konten · nur Inhaber/innen und Admins". */
export function audienceSummary(
  t: TFunction,
  a: Pick<Announcement, 'audience' | 'audienceValues' | 'roles'>,
) {
  const values = a.audienceValues.join(', ');
  const audience =
    a.audience === 'all'
      ? t('announcements.audienceShort.all')
      : a.audience === 'accounts'
        ? t('announcements.audienceShort.accounts', { count: a.audienceValues.length })
        : t(`announcements.audienceShort.${a.audience}`, { values });
  return a.roles === 'admins' ? `${audience} · ${t('announcements.rolesShort.admins')}` : audience;
}
