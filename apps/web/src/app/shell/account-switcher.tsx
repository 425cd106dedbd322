import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import { useCurrentAccount, useMyAccounts } from '@/api/session.ts';

// The menu (popover, search field) loads on first open: the first page view does not need it.
const AccountMenu = lazy(() => import('./account-menu.tsx'));

/** The current account and role; opens the list of the user's accounts to switch. */
export function AccountSwitcher() {
  const { t } = useTranslation();
  const accounts = useMyAccounts();
  const current = useCurrentAccount();
  // Staff working in a customer's account by its ID see that account in the list too, as the current one.
  const listed =
    current && !accounts.some((own) => own.uuid === current.uuid) ? [current, ...accounts] : accounts;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={t('accountSwitcher.open')}
        sx={{
          borderRadius: 2,
          px: 1.5,
          py: 0.5,
          gap: 1,
          textAlign: 'left',
          border: '1px solid rgba(255,255,255,0.35)',
          maxWidth: { xs: 180, sm: 320 },
          // It gives way first on a narrow phone (its texts end in "…"), so the user menu stays on screen at 320 px.
          minWidth: 0,
          '&:hover': { bgcolor: 'rgba(255,255,255,0.12)' },
          '&:focus-visible': { outline: '2px solid #fff', outlineOffset: 2 },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600, lineHeight: 1.3 }}>
            {current?.name ?? (accounts.length ? t('accountSwitcher.choose') : t('accountSwitcher.none'))}
          </Typography>
          {current && (
            <Typography variant="caption" noWrap sx={{ display: 'block', lineHeight: 1.2 }}>
              {t(`common.accountRoles.${current.accountRole}`)}
            </Typography>
          )}
        </Box>
        <UnfoldMore fontSize="small" aria-hidden />
      </ButtonBase>
      {anchor && (
        <Suspense fallback={null}>
          <AccountMenu anchor={anchor} accounts={listed} current={current} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
