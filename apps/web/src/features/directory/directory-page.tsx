import { useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import { DIRECTORY_QUERY_MAX, type DirectoryAccount, type SubscriptionStatus } from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDate, formatLastDay, formatMoney, formatNumber } from '@/i18n/format.ts';
import { useAddressParams } from '@/ui/address-pagination.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Fact, FactList } from '@/ui/fact.tsx';
import { Page } from '@/ui/page.tsx';
import { directoryQuery } from './api.ts';

const STATUS_COLOR = {
  TRIALING: 'info',
  ACTIVE: 'success',
  PAST_DUE: 'error',
  CANCELLED: 'disabled',
} as const satisfies Record<SubscriptionStatus, string>;

/** The invoices of a hit: counts for everyone, the amounts only when the answer carries them (billing staff). */
function Invoices({ account }: { account: DirectoryAccount }) {
  const { t } = useTranslation();
  const { openCount, overdueCount, amounts } = account.invoices;
  return (
    <>
      {overdueCount > 0
        ? t('directory.invoiceCounts', { open: openCount, overdue: overdueCount })
        : openCount}
      {amounts?.map((amount) => (
        <Typography key={amount.currency} variant="body2" sx={{ color: 'text.secondary' }}>
          {amount.overdueMinor > 0
            ? t('directory.amounts', {
                open: formatMoney(amount.openMinor, amount.currency),
                overdue: formatMoney(amount.overdueMinor, amount.currency),
              })
            : t('directory.amountsOpen', { open: formatMoney(amount.openMinor, amount.currency) })}
        </Typography>
      ))}
    </>
  );
}

/** One account found: its name and how it was found, the way to open it, and its summary. */
function Hit({ account }: { account: DirectoryAccount }) {
  const { t, i18n } = useTranslation();
  const regions = new Intl.DisplayNames([i18n.resolvedLanguage ?? 'de'], { type: 'region' });
  const { subscription, owner, twoFactor } = account;
  const found = account.matchedBy.map((kind) => t(`directory.match.${kind}`)).join(', ');
  return (
    <Paper component="li" variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, listStyle: 'none' }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 2 }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {account.name}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {[account.uid, regions.of(account.country) ?? account.country].filter(Boolean).join(' · ')}
          </Typography>
          {found && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('directory.matchedBy', { what: found })}
            </Typography>
          )}
        </Box>
        {account.mayOpen ? (
          <Button
            component={RouterLink}
            to={href('dashboard', undefined, { uuid: account.uuid })}
            variant="outlined"
            aria-label={t('directory.openName', { name: account.name })}
            sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'auto' } }}
          >
            {t('directory.open')}
          </Button>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: { sm: 280 } }}>
            {t('directory.noConsent')}
          </Typography>
        )}
      </Stack>
      <FactList columns={3}>
        <Fact label={t('directory.plan')}>
          {subscription ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <span>{subscription.planName}</span>
              <DotChip
                color={STATUS_COLOR[subscription.status]}
                label={t(`directory.status.${subscription.status}`)}
              />
            </Stack>
          ) : (
            t('directory.noSubscription')
          )}
          {subscription?.cancelAtPeriodEnd && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('directory.endsOn', { date: formatLastDay(subscription.currentPeriodEnd) })}
            </Typography>
          )}
        </Fact>
        <Fact label={t('directory.owner')}>
          {owner ? (
            <>
              {owner.name}
              {owner.email && (
                <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                  {owner.email}
                </Typography>
              )}
            </>
          ) : (
            t('directory.noOwner')
          )}
        </Fact>
        <Fact label={t('directory.members')}>{account.membersCount}</Fact>
        <Fact label={t('directory.invoices')}>
          <Invoices account={account} />
        </Fact>
        <Fact label={t('directory.tickets')}>{account.openTickets}</Fact>
        <Fact label={t('directory.deletion')}>
          {account.availableUntil
            ? t('directory.deletionOn', { date: formatDate(account.availableUntil) })
            : t('directory.noDeletion')}
        </Fact>
        <Fact label={t('directory.twoFactor')}>
          {!twoFactor.required
            ? t('directory.twoFactorNone')
            : twoFactor.graceUntil && new Date(twoFactor.graceUntil) > new Date()
              ? t('directory.twoFactorGrace', { date: formatDate(twoFactor.graceUntil) })
              : t('directory.twoFactorRequired')}
        </Fact>
      </FactList>
    </Paper>
  );
}

/**
 * /accounts/directory: support staff find any account by name, UID, a member's address, an invoice or a ticket
 * number, and read its summary without opening it (decision 229). The search lives in the address, so it can be
 * shared and the back button returns to it; the hits come by name, "load more" along the server's keyset cursor as
 * on the log (decision 252). Opening an account is the guard's `/?uuid=`, with its own rules and its entry in the
 * account's log.
 */
export default function DirectoryPage() {
  const { t, i18n } = useTranslation();
  const { get, set } = useAddressParams();
  const q = get('q') ?? '';
  const [text, setText] = useState(q);
  const result = useInfiniteQuery(directoryQuery({ q: q || undefined }));
  const accounts = result.data?.pages.flatMap((page) => page.data) ?? [];
  // A search counts its hits; the list of every account is not counted.
  const total = result.data?.pages[0]?.meta.total ?? null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    set('q', text.trim());
  };

  return (
    <Page title={t('routes.accountDirectory')}>
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('directory.intro')}</Typography>
      <Box
        component="form"
        role="search"
        aria-label={t('directory.searchLabel')}
        onSubmit={onSubmit}
        sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mb: 3 }}
      >
        <TextField
          type="search"
          size="small"
          label={t('directory.searchLabel')}
          helperText={t('directory.searchHelp')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          sx={{ flex: '1 1 280px', maxWidth: 560 }}
          slotProps={{ htmlInput: { maxLength: DIRECTORY_QUERY_MAX, spellCheck: false } }}
        />
        <Button type="submit" variant="contained" sx={{ mt: '2px' }}>
          {t('directory.search')}
        </Button>
      </Box>
      {result.isSuccess && accounts.length === 0 ? (
        <EmptyState
          icon={ManageSearchOutlined}
          title={t('directory.emptyTitle')}
          text={t('directory.emptyText')}
        />
      ) : (
        <>
          <Stack
            component="ul"
            spacing={2}
            aria-label={t('directory.results')}
            aria-busy={result.isFetching}
            sx={{ p: 0, m: 0 }}
          >
            {accounts.map((account) => (
              <Hit key={account.uuid} account={account} />
            ))}
          </Stack>
          {accounts.length > 0 && (
            <Stack
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 2, gap: 2, flexWrap: 'wrap' }}
            >
              <Typography variant="body2" sx={{ color: 'text.secondary' }} role="status">
                {total === null
                  ? t('directory.shown', { count: accounts.length })
                  : t('directory.shownOf', {
                      count: accounts.length,
                      total: formatNumber(total, i18n.resolvedLanguage),
                    })}
              </Typography>
              {result.hasNextPage && (
                <Button
                  variant="outlined"
                  onClick={() => void result.fetchNextPage()}
                  disabled={result.isFetchingNextPage}
                  startIcon={result.isFetchingNextPage ? <CircularProgress size={18} /> : undefined}
                >
                  {t('directory.loadMore')}
                </Button>
              )}
            </Stack>
          )}
        </>
      )}
    </Page>
  );
}
