import { RouterProvider, type DataRouter } from 'react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { ToastViewport } from '@/ui/toast.tsx';
import { currentLanguage } from '@/i18n/i18n.ts';

/** Providers around the router: server state, theme with the MUI locale, confirm dialog, toasts. */
export function App({ router, queryClient }: { router: DataRouter; queryClient: QueryClient }) {
  // useTranslation renders again on every language change, so the language is read, not kept.
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <QueryClientProvider client={queryClient}>
      <PortalThemeProvider language={language} rowsPerPage={t('common.rowsPerPage')}>
        <ConfirmProvider>
          <RouterProvider router={router} />
          <ToastViewport />
        </ConfirmProvider>
      </PortalThemeProvider>
    </QueryClientProvider>
  );
}
