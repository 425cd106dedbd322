import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ProfileTab } from '@/features/profile/profile-tab.tsx';
import { MyDataTab } from '@/features/security/my-data-tab.tsx';
import { SecurityTab } from '@/features/security/security-tab.tsx';
import { useAddressParams } from '@/ui/address-pagination.tsx';
import { Page } from '@/ui/page.tsx';

/** The tabs of settings/users; the address keeps the open one (`?tab=security`), so a link can lead there. */
const TABS = ['profile', 'security', 'data'] as const;
type UserSettingsTab = (typeof TABS)[number];

/**
 * /settings/users: the signed-in user's own settings, one tab per feature: "Profil" (features/profile) and
 * "Sicherheit" and "Meine Daten" (features/security). The app layer puts them side by side, as no feature imports another.
 */
export default function UserSettingsPage() {
  const { t } = useTranslation();
  const { params, set } = useAddressParams();
  const asked = params.get('tab');
  const tab: UserSettingsTab = TABS.find((value) => value === asked) ?? 'profile';
  return (
    <Page title={t('profile.title')}>
      <Tabs
        value={tab}
        onChange={(_event, next: UserSettingsTab) => set('tab', next === 'profile' ? undefined : next)}
        aria-label={t('profile.tabs.label')}
        variant="scrollable"
        scrollButtons={false}
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
        {tab === 'profile' ? <ProfileTab /> : tab === 'security' ? <SecurityTab /> : <MyDataTab />}
      </div>
    </Page>
  );
}
