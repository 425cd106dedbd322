import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { membersRoutes, type AccountRole } from '@portal/contract';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import { useCurrentAccountUuid, useMayCall } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';
import { MembersTable } from './members-table.tsx';

/** The page's two sections: digital coaches apart from everyone else (the role filter only where it chooses). */
const SECTIONS = [
  {
    section: 'members',
    scope: undefined,
    title: 'members.membersTitle',
    empty: 'members.empty',
    icon: PersonAddOutlined,
    roles: ['OWNER', 'ADMIN', 'EMPLOYEE'],
  },
  {
    section: 'coaches',
    // The second list of the page keeps its search, filters and page apart in the address (coaches.page).
    scope: 'coaches',
    title: 'members.coachesTitle',
    empty: 'members.coachesEmpty',
    icon: SupportAgentOutlined,
    roles: [],
  },
] as const satisfies readonly {
  section: 'members' | 'coaches';
  scope: string | undefined;
  title: ParseKeys;
  empty: ParseKeys;
  icon: typeof SvgIcon;
  roles: readonly AccountRole[];
}[];

/**
 * settings/user-management: the account's members and open invitations, paged on the server, with search and
 * filters; digital coaches in a section of their own. Inviting, role changes and removals start here.
 */
export default function UserManagementPage() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const mayInvite = useMayCall(membersRoutes.invite);

  return (
    <Page
      title={t('routes.userManagement')}
      actions={
        mayInvite && (
          <>
            <Button
              component={RouterLink}
              to={href('settings-digital-coach-form')}
              variant="outlined"
              startIcon={<SupportAgentOutlined />}
            >
              {t('members.inviteCoach')}
            </Button>
            <Button
              component={RouterLink}
              to={href('settings-user-management-form', {})}
              variant="contained"
              startIcon={<PersonAddOutlined />}
            >
              {t('members.invite')}
            </Button>
          </>
        )
      }
    >
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('members.intro')}</Typography>
      <Stack spacing={3}>
        {SECTIONS.map((section) => (
          <Paper key={section.section} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <MembersTable
              account={account}
              section={section.section}
              scope={section.scope}
              title={t(section.title)}
              titleId={`members-${section.section}`}
              roles={section.roles}
              empty={{ icon: section.icon, title: t(section.empty) }}
            />
          </Paper>
        ))}
      </Stack>
    </Page>
  );
}
