import { lazy, Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import { ACCOUNT_ROLES, hasLevel, type Account } from '@portal/contract';
import { rememberCurrentPage } from '@/auth/auth.ts';
import { useVerifyEmailHref } from '@/auth/use-verify-email-href.ts';
import { useCancelDeletion } from '@/api/account-deletion.ts';
import { meQuery } from '@/api/session.ts';
import { billingStatusQuery } from '@/features/billing/api.ts';
import { formatDate, formatDay, formatMoney } from '@/i18n/format.ts';
import { preloadable } from '@/ui/preloadable.tsx';
import { href } from '../href.ts';
import { getVersionState, subscribeVersion } from '../version-check.ts';

const ToolbarBar = lazy(() => import('./toolbar-bar.tsx'));

function Bar(props: { severity: 'info' | 'warning' | 'error'; children: ReactNode; action?: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <ToolbarBar {...props} />
    </Suspense>
  );
}

/** A system toolbar when a newer version is served (or the version check failed), with a reload button. */
export function NewVersionBar() {
  const { t } = useTranslation();
  const { newVersionAvailable } = useSyncExternalStore(subscribeVersion, getVersionState, getVersionState);
  if (!newVersionAvailable) return null;
  return (
    <Bar
      severity="info"
      action={
        <Button color="inherit" size="small" variant="outlined" onClick={() => window.location.reload()}>
          {t('shell.reload')}
        </Button>
      }
    >
      {t('shell.newVersionAvailable')}
    </Bar>
  );
}

/**
 * The person's address is not verified (the server has it from the token): link to the provider's verification in
 * the interface language, which comes back to the current page.
 */
export function EmailVerificationBar() {
  const { t } = useTranslation();
  const unverified = useQuery(meQuery).data?.emailVerified === false;
  const href = useVerifyEmailHref(unverified);
  if (!unverified) return null;
  return (
    <Bar
      severity="warning"
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          href={href ?? undefined}
          disabled={!href}
          onClick={rememberCurrentPage}
        >
          {t('shell.verify')}
        </Button>
      }
    >
      {t('shell.needsEmailVerification')}
    </Bar>
  );
}

/**
 * The account is scheduled for deletion (it stays usable for 30 days): the date, and for its owner a way to
 * cancel the deletion.
 */
export function AccountDeletionBar({ account }: { account: Account | null }) {
  const { t, i18n } = useTranslation();
  const { cancelDeletion, isPending } = useCancelDeletion();
  if (!account?.availableUntil) return null;
  const date = formatDate(account.availableUntil, i18n.resolvedLanguage);

  return (
    <Bar
      severity="error"
      action={
        account.isOwner ? (
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            disabled={isPending}
            onClick={() => void cancelDeletion(account)}
          >
            {t('shell.cancelDeletion')}
          </Button>
        ) : undefined
      }
    >
      {t('shell.accountWillBeDeletedAfter', { date })}
    </Bar>
  );
}

/**
 * The account is past due (an invoice unpaid longer than the configured days after its due date): its admins and
 * those above see the overdue amount and a way to the invoices. Read once per account; never asked for below
 * ADMIN (the server would refuse).
 */
export function PastDueBar({ account }: { account: Account | null }) {
  const { t, i18n } = useTranslation();
  const admin = Boolean(account) && hasLevel(ACCOUNT_ROLES, account?.accountRole, 'ADMIN');
  // An account whose two-factor rule refuses the user answers no area's data until they set one up.
  const active =
    admin && account?.invitationStatus === 'ACCEPTED' && account.twoFactorRequired !== 'enforced';
  const { data } = useQuery({ ...billingStatusQuery(account?.uuid ?? ''), enabled: active });
  const pastDue = active ? data?.pastDue : null;
  if (!account || !pastDue) return null;
  const language = i18n.resolvedLanguage;
  const amount = pastDue.amounts.map((due) => formatMoney(due.amountMinor, due.currency)).join(' + ');
  return (
    <Bar
      severity="error"
      action={
        <Button color="inherit" size="small" variant="outlined" component={RouterLink} to={href('billing')}>
          {t('billing.pastDue.action')}
        </Button>
      }
    >
      {t('billing.pastDue.message', {
        count: pastDue.invoices,
        amount,
        date: formatDay(pastDue.since, language),
      })}
    </Bar>
  );
}

/**
 * Staff in a customer's account (under the consent of one of its open tickets): they read what an ADMIN reads and
 * change nothing but declared support actions, so every page says so once, here.
 */
export function StaffAccessBar({ account }: { account: Account | null }) {
  const { t } = useTranslation();
  if (account?.accountRole !== 'SUPPORT') return null;
  return <Bar severity="info">{t('shell.staffAccess', { accountName: account.name })}</Bar>;
}

/** Where a dismissed grace-period reminder is remembered (per account and end date, for this browser tab). */
const graceDismissedKey = (account: Account) =>
  `twoFactorGraceDismissed:${account.uuid}:${account.twoFactorGraceUntil}`;

/**
 * The account requires two-factor authentication of the user. During the grace period: a reminder with the date
 * and a way to the security settings, which the user may dismiss. After it: the account's pages lead to the
 * security settings (the guard), and this bar says why and offers the user's other accounts.
 */
export function TwoFactorBar({ account }: { account: Account | null }) {
  const { t, i18n } = useTranslation();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const state = account?.twoFactorRequired;
  if (!account || account.accountRole === 'SUPPORT' || !state || state === 'none') return null;
  const date = account.twoFactorGraceUntil
    ? formatDate(account.twoFactorGraceUntil, i18n.resolvedLanguage)
    : '';
  const setup = href('settings-users', undefined, { tab: 'security' });
  if (state === 'enforced') {
    return (
      <Bar
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            component={RouterLink}
            to={href('accounts')}
          >
            {t('company.twoFactor.switchAccount')}
          </Button>
        }
      >
        <strong>{t('company.twoFactor.enforcedTitle', { accountName: account.name })}</strong>{' '}
        {t('company.twoFactor.enforcedText')}
      </Bar>
    );
  }
  const key = graceDismissedKey(account);
  if (dismissed === key || sessionStorage.getItem(key)) return null;
  return (
    <Bar
      severity="warning"
      action={
        <>
          <Button color="inherit" size="small" variant="outlined" component={RouterLink} to={setup}>
            {t('company.twoFactor.graceAction')}
          </Button>
          <Button
            color="inherit"
            size="small"
            sx={{ ml: 1 }}
            onClick={() => {
              sessionStorage.setItem(key, '1');
              setDismissed(key);
            }}
          >
            {t('company.twoFactor.dismiss')}
          </Button>
        </>
      }
    >
      {t('company.twoFactor.graceBanner', { accountName: account.name, date })}
    </Bar>
  );
}

// A reload with a session starts the bars' chunk early (app/early-session.ts), so they render with the shell.
const announcementBarList = preloadable(() => import('./announcement-bars.tsx'));
export const preloadAnnouncementBars = announcementBarList.preload;
const AnnouncementBarList = announcementBarList.Component;

/** The provider's maintenance and incident announcements (`announcement-bars.tsx`), loaded after the first paint. */
export function AnnouncementBars() {
  return (
    <Suspense fallback={null}>
      <AnnouncementBarList />
    </Suspense>
  );
}
