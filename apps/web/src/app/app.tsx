import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { ToastViewport } from '@/ui/toast.tsx';
import { currentLanguage } from '@/i18n/i18n.ts';
import type { Navigation } from '@/routing/navigation.ts';
import { AppRouter } from '@/routing/navigation-view.tsx';
import { FullPageLoader, RootErrorBoundary } from './shell/full-page-states.tsx';

/** Providers around the router: server state, theme with the MUI locale, confirm dialog, toasts. */
export function App({
  navigation,
  routes,
  queryClient,
}: {
  navigation: Navigation;
  routes: ReactNode;
  queryClient: QueryClient;
}) {
  // useTranslation renders again on every language change, so the language is read, not kept.
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <QueryClientProvider client={queryClient}>
      <PortalThemeProvider language={language} rowsPerPage={t('common.rowsPerPage')}>
        <ConfirmProvider>
          <AppRouter navigation={navigation} loading={<FullPageLoader />} rootError={RootErrorBoundary}>
            {routes}
          </AppRouter>
          <ToastViewport />
        </ConfirmProvider>
      </PortalThemeProvider>
    </QueryClientProvider>
  );
}
