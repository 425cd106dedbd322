import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { peppershopRoutes, type ShopConnection, type ShopSyncStatus } from '@portal/contract';
import { useCurrentAccountUuid, useMayCall } from '@/api/session.ts';
import { formatDateTime, formatNumber } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { shopStateQuery, useDisconnectShop, useSyncShop } from './api.ts';
import { ShopConfigForm } from './shop-config-form.tsx';

const STATUS_COLOR: Record<ShopSyncStatus, 'success' | 'error' | 'info'> = {
  OK: 'success',
  FAILED: 'error',
  QUEUED: 'info',
  RUNNING: 'info',
};

const KINDS = ['products', 'orders', 'customers'] as const;

/** Three figures side by side: one per kind of record. */
function Counts({ label, counts }: { label: string; counts: ShopConnection['records'] }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography component="h3" variant="subtitle2" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <Stack component="dl" direction="row" spacing={4} sx={{ m: 0 }}>
        {KINDS.map((kind) => (
          <Box key={kind}>
            <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
              {t(`peppershop.kinds.${kind}`)}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ m: 0 }} data-testid={`shop-${kind}`}>
              {formatNumber(counts[kind])}
            </Typography>
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

/** The last sync (status, times, error, what it read), the records kept, and "Sync now". */
function SyncStatus({ account, connection }: { account: string; connection: ShopConnection }) {
  const { t } = useTranslation();
  const sync = useSyncShop(account);
  const maySync = useMayCall(peppershopRoutes.syncShopNow);
  const last = connection.lastSync;
  const busy = last?.status === 'QUEUED' || last?.status === 'RUNNING';
  return (
    <Stack spacing={2.5}>
      {last ? (
        <Stack spacing={1}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Box data-testid="shop-sync-status">
              <DotChip color={STATUS_COLOR[last.status]} label={t(`peppershop.statuses.${last.status}`)} />
            </Box>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {last.finishedAt
                ? t('peppershop.finishedAt', { when: formatDateTime(last.finishedAt) })
                : t('peppershop.startedAt', { when: formatDateTime(last.startedAt) })}
            </Typography>
          </Stack>
          {last.error && (
            <Alert severity="error" data-testid="shop-sync-error">
              {t(`peppershop.results.${last.error}`)}
            </Alert>
          )}
        </Stack>
      ) : (
        <Typography variant="body2">{t('peppershop.neverSynced')}</Typography>
      )}
      <Counts label={t('peppershop.records')} counts={connection.records} />
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {connection.nextSyncAt
          ? t('peppershop.nextSync', { when: formatDateTime(connection.nextSyncAt) })
          : t('peppershop.noScheduledSync')}
      </Typography>
      {maySync && (
        <Box>
          <Button
            variant="outlined"
            onClick={() => sync.mutate()}
            loading={sync.isPending || busy}
            loadingPosition="start"
          >
            {t('peppershop.syncNow')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function Disconnect({ account }: { account: string }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const disconnect = useDisconnectShop(account);
  const ask = async () => {
    const ok = await confirm({
      title: t('peppershop.disconnectTitle'),
      message: t('peppershop.disconnectMessage'),
      confirmLabel: t('peppershop.disconnect'),
      destructive: true,
    });
    if (ok) disconnect.mutate();
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2">{t('peppershop.disconnectHelp')}</Typography>
      <Button variant="outlined" color="error" onClick={() => void ask()} loading={disconnect.isPending}>
        {t('peppershop.disconnect')}
      </Button>
    </Stack>
  );
}

/** /peppershop/config (ADMIN and above): the account's online shop, its synchronisation and disconnecting it. */
export default function ShopConfigPage() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const state = useQuery(shopStateQuery(account));
  const mayDisconnect = useMayCall(peppershopRoutes.disconnectShop);

  let content: ReactNode;
  if (state.data) {
    const connection = state.data.connection;
    content = (
      <Stack spacing={3}>
        <Typography variant="body1" sx={{ color: 'text.secondary', maxWidth: 760 }}>
          {t('peppershop.intro')}
        </Typography>
        <SectionCard id="shop-connection" title={t('peppershop.connection')}>
          <ShopConfigForm
            key={`${account}:${connection?.updatedAt ?? 'none'}`}
            account={account}
            state={state.data}
          />
        </SectionCard>
        {connection && (
          <SectionCard id="shop-sync" title={t('peppershop.sync')}>
            <SyncStatus account={account} connection={connection} />
          </SectionCard>
        )}
        {connection && mayDisconnect && (
          <SectionCard id="shop-disconnect" title={t('peppershop.disconnectSection')}>
            <Disconnect account={account} />
          </SectionCard>
        )}
      </Stack>
    );
  } else if (state.isError) {
    content = <Alert severity="error">{t('peppershop.loadFailed')}</Alert>;
  } else {
    content = <CircularProgress aria-label={t('routes.peppershopConfig')} />;
  }
  return <Page title={t('routes.peppershopConfig')}>{content}</Page>;
}
