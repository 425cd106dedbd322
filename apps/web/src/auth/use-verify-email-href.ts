import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n/i18n.ts';
import { verifyEmailUrl } from './auth.ts';

/**
 * The provider's link that mails a verification link for the signed-in user's address (in the interface language)
 * and comes back to the current page; null while it is built or when `wanted` is false. Whoever follows it calls
 * `rememberCurrentPage()` first.
 */
export function useVerifyEmailHref(wanted: boolean): string | null {
  const { i18n } = useTranslation();
  const [href, setHref] = useState<string | null>(null);
  const language = i18n.resolvedLanguage ?? currentLanguage();
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void verifyEmailUrl(language).then((url) => live && setHref(url));
    return () => {
      live = false;
    };
  }, [wanted, language]);
  return wanted ? href : null;
}
