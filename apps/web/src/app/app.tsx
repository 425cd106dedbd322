import { useEffect, useState } from 'react';
import { RouterProvider, type DataRouter } from 'react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { ToastViewport } from '@/ui/toast.tsx';
import { currentLanguage } from '@/i18n/i18n.ts';

/** Providers around the router: server state, theme with the MUI locale, confirm dialog, toasts. */
export function App({ router, queryClient }: { router: DataRouter; queryClient: QueryClient }) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState(currentLanguage);
  useEffect(() => {
    const update = () => setLanguage(currentLanguage());
    i18n.on('languageChanged', update);
    return () => i18n.off('languageChanged', update);
  }, [i18n]);
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
