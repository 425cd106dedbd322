import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { href } from '@/app/href.ts';
import { CreateAccountForm } from './create-account-form.tsx';
import { Page } from '@/ui/page.tsx';

/** /accounts/account: a new account for the user's company; the creator becomes its owner. */
export default function CreateAccountPage() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('createAccount.title')}
      actions={
        <Button component={RouterLink} to={href('accounts')} startIcon={<ArrowBack />}>
          {t('createAccount.backToAccounts')}
        </Button>
      }
    >
      <Typography sx={{ mb: 3, maxWidth: 640, color: 'text.secondary' }}>
        {t('createAccount.intro')}
      </Typography>
      <CreateAccountForm />
    </Page>
  );
}
