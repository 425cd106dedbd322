import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ProfileTab } from '@/features/profile/profile-tab.tsx';
import { SecurityTab } from '@/features/security/security-tab.tsx';
import { useAddressParams } from '@/ui/address-pagination.tsx';
import { Page } from '@/ui/page.tsx';

/** The tabs of settings/users; the address keeps the open one (`?tab=security`), so a link can lead there. */
const TABS = ['profile', 'security'] as const;
type UserSettingsTab = (typeof TABS)[number];

/**
 * /settings/users: the signed-in user's own settings, one tab per feature: "Profil" (features/profile) and
 * "Sicherheit" (features/security). The app layer puts them side by side, as no feature imports another.
 */
export default function UserSettingsPage() {
  const { t } = useTranslation();
  const { params, set } = useAddressParams();
  const tab: UserSettingsTab = params.get('tab') === 'security' ? 'security' : 'profile';
  return (
    <Page title={t('profile.title')}>
      <Tabs
        value={tab}
        onChange={(_event, next: UserSettingsTab) => set('tab', next === 'profile' ? undefined : next)}
        aria-label={t('profile.tabs.label')}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((value) => (
          <Tab
            key={value}
            value={value}
            label={t(`profile.tabs.${value}`)}
            id={`profile-tab-${value}`}
            aria-controls={`profile-tabpanel-${value}`}
          />
        ))}
      </Tabs>
      <div role="tabpanel" id={`profile-tabpanel-${tab}`} aria-labelledby={`profile-tab-${tab}`}>
        {tab === 'profile' ? <ProfileTab /> : <SecurityTab />}
      </div>
    </Page>
  );
}
