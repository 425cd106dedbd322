import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useNavigationPending, Link } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import { unreadCountQuery } from '@/api/notifications.ts';
import { useCurrentAccount, useMe } from '@/api/session.ts';
import { config } from '@/config.ts';
import { keepFocus } from '@/ui/keep-focus.ts';
import { useLiveNotifications } from '@/features/notifications/live/use-live-notifications.ts';
import { AccountSwitcher } from './account-switcher.tsx';
import { SessionExpiry } from './session-expiry.tsx';
import { SideNav, visibleNavItems } from './side-nav.tsx';
import {
  AccountDeletionBar,
  AnnouncementBars,
  EmailVerificationBar,
  NewVersionBar,
  PastDueBar,
  StaffAccessBar,
  TwoFactorBar,
} from './toolbars.tsx';
import { UserMenu } from './user-menu.tsx';
import { href } from '../href.ts';
import { setUnreadInTitle } from '../router-effects.ts';

const DRAWER_WIDTH = 248;
// Only small screens use the drawer; wide ones never load it.
const NavDrawer = lazy(() => import('./nav-drawer.tsx'));
// The thin progress bar appears only while a navigation runs.
const NavigationProgress = lazy(() => import('./navigation-progress.tsx'));

/** The current account's unread notifications in the document title, as the server counts them. */
function useUnreadInTitle(accountUuid: string | undefined) {
  const { data: count = 0 } = useQuery({
    ...unreadCountQuery(accountUuid ?? ''),
    enabled: Boolean(accountUuid),
  });
  const shown = accountUuid ? count : 0;
  useEffect(() => {
    setUnreadInTitle(shown);
    return () => setUnreadInTitle(0);
  }, [shown]);
}

/** The application shell: toolbars, app bar, side navigation, the routed page. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navigating = useNavigationPending();
  const me = useMe();
  const account = useCurrentAccount();
  useUnreadInTitle(account?.uuid);
  // The signed-in app keeps the tab's one live notification stream open.
  useLiveNotifications();
  // A focused control disabled while it works or removed with its row or page keeps the keyboard's place.
  useEffect(() => keepFocus(document.body, () => document.getElementById('main')), []);

  // Without an account (onboarding, staff) there may be nothing to navigate to: no empty column then.
  const hasNav = Object.values(
    visibleNavItems(account?.accountRole ?? null, me.userRole, Boolean(account)),
  ).some((items) => items.length > 0);
  const nav = (
    <SideNav
      accountRole={account?.accountRole ?? null}
      userRole={me.userRole}
      hasAccount={Boolean(account)}
      onNavigate={wide ? undefined : () => setDrawerOpen(false)}
    />
  );

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      {navigating && (
        <Suspense fallback={null}>
          <NavigationProgress label={t('app.loading')} />
        </Suspense>
      )}
      <NewVersionBar />
      <AppBar position="sticky" color="primary" elevation={0}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
          {!wide && hasNav && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={t('nav.open')}
              onClick={() => setDrawerOpen(true)}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography
            variant="h6"
            component={Link}
            to={href('dashboard')}
            sx={{
              color: 'inherit',
              textDecoration: 'none',
              fontWeight: 700,
              whiteSpace: 'nowrap',
              display: 'flex',
              alignItems: 'center',
              gap: 1,
            }}
          >
            {/* The configured logo (BRAND_LOGO) beside the name, which stays the link's text. */}
            {config().brandLogo && (
              <Box
                component="img"
                src={config().brandLogo!}
                alt=""
                sx={{ height: 32, maxWidth: 120, objectFit: 'contain' }}
              />
            )}
            {config().productName}
          </Typography>
          <Box sx={{ flex: 1 }} />
          <AccountSwitcher />
          <UserMenu />
        </Toolbar>
      </AppBar>
      <EmailVerificationBar />
      <AccountDeletionBar account={account} />
      <PastDueBar account={account} />
      <TwoFactorBar account={account} />
      <StaffAccessBar account={account} />
      <AnnouncementBars />
      <Box sx={{ display: 'flex', flex: 1 }}>
        {!hasNav ? null : wide ? (
          <Box
            component="aside"
            sx={{
              width: DRAWER_WIDTH,
              flexShrink: 0,
              borderRight: 1,
              borderColor: 'divider',
              bgcolor: 'background.paper',
              py: 1,
            }}
          >
            {nav}
          </Box>
        ) : (
          <Suspense fallback={null}>
            <NavDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} width={DRAWER_WIDTH}>
              {nav}
            </NavDrawer>
          </Suspense>
        )}
        <Box
          component="main"
          id="main"
          tabIndex={-1}
          sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3, md: 4 } }}
        >
          {children}
        </Box>
      </Box>
      <SessionExpiry />
    </Box>
  );
}
