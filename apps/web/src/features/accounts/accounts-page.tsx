import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from '@/routing/navigation-view.tsx';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { isStaffRole, type Account } from '@portal/contract';
import { switchAccount, useCurrentAccount, useMe, useMyAccounts } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';
import { AccountStatus } from './account-status.tsx';
import { OpenAccountForm } from './open-account-form.tsx';

function AccountAction({ account, current }: { account: Account; current: boolean }) {
  const { t } = useTranslation();
  if (account.invitationStatus === 'PENDING') {
    return (
      <Button component={RouterLink} to={href('invite-verify')} variant="outlined" size="small">
        {t('accounts.answerInvitation')}
      </Button>
    );
  }
  if (current || account.invitationStatus !== 'ACCEPTED') return null;
  return (
    <Button
      variant="outlined"
      size="small"
      aria-label={t('accounts.switchTo', { name: account.name })}
      onClick={() => switchAccount(account.uuid)}
    >
      {t('accounts.switch')}
    </Button>
  );
}

/**
 * /accounts: every account the user belongs to, with role and status; switch to one or create a new one. Staff
 * land here without accounts of their own and open customers' accounts by ID.
 */
export default function AccountsPage() {
  const { t, i18n } = useTranslation();
  const staff = isStaffRole(useMe().userRole);
  const accounts = useMyAccounts();
  const current = useCurrentAccount();
  const notOpened = useSearchParams()[0].get('notOpened');
  const regions = new Intl.DisplayNames([i18n.resolvedLanguage ?? 'de'], { type: 'region' });

  return (
    <Page
      title={t('accounts.title')}
      actions={
        <Button component={RouterLink} to={href('create-account')} variant="contained" startIcon={<Add />}>
          {t('accounts.create')}
        </Button>
      }
    >
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('accounts.intro')}</Typography>
      {/* The guard sends staff here with ?notOpened=<id> when it could not open that account for them. */}
      {staff && <OpenAccountForm key={notOpened ?? ''} notOpened={notOpened} />}
      {accounts.length === 0 ? (
        <Alert severity="info">
          {t('accounts.empty')} {staff ? t('accounts.staffEmptyHint') : t('accounts.emptyHint')}
        </Alert>
      ) : (
        <Paper variant="outlined">
          <List disablePadding aria-label={t('accounts.title')}>
            {accounts.map((account, index) => {
              const isCurrent = account.uuid === current?.uuid;
              return (
                <ListItem
                  key={account.uuid}
                  divider={index < accounts.length - 1}
                  sx={{ py: 1.5, gap: 2, flexWrap: 'wrap' }}
                >
                  <ListItemText
                    primary={account.name}
                    slotProps={{
                      primary: { sx: { fontWeight: 600 } },
                      secondary: { component: 'div' },
                    }}
                    secondary={
                      <>
                        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                          {t('accounts.roleLabel', { role: t(`accounts.roles.${account.accountRole}`) })}
                          {' · '}
                          {regions.of(account.country) ?? account.country}
                        </Typography>
                        <AccountStatus account={account} current={isCurrent} />
                      </>
                    }
                    sx={{ flex: '1 1 280px' }}
                  />
                  <AccountAction account={account} current={isCurrent} />
                </ListItem>
              );
            })}
          </List>
        </Paper>
      )}
    </Page>
  );
}
