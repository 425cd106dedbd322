import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import {
  deepcloudRoutes,
  type CloudAuthorization,
  type CloudConnection,
  type CloudState,
} from '@portal/contract';
import { useCurrentAccount, useMayCall } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { later } from '@/i18n/later.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Fact, FactList } from '@/ui/fact.tsx';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { useToast } from '@/ui/toast.tsx';
import { cloudStateQuery, useDisconnectCloud } from './api.ts';
import { startCloudConnect } from './connect-state.ts';
import { OrganizationsList } from './organizations-list.tsx';
import { RetryAlert } from './retry-alert.tsx';
import { useNavigate } from '@/routing/navigation-view.tsx';

/** Starts connecting: the browser leaves for the cloud's sign-in, so the button stays busy until it has. */
function ConnectButton({
  authorization,
  account,
  label,
  variant,
}: {
  authorization: CloudAuthorization;
  account: string;
  label: string;
  variant: 'contained' | 'outlined';
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await startCloudConnect(authorization, account);
    } catch {
      setBusy(false);
      toast.error(later('deepcloud.connectFailed'));
    }
  };
  return (
    <Button variant={variant} onClick={() => void onClick()} disabled={busy}>
      {label}
    </Button>
  );
}

function NotConnected({
  state,
  account,
  mayConnect,
}: {
  state: CloudState;
  account: string;
  mayConnect: boolean;
}) {
  const { t } = useTranslation();
  if (!state.authorization) {
    return (
      <EmptyState
        icon={CloudOffOutlined}
        title={t('deepcloud.notConfiguredTitle')}
        text={t('deepcloud.notConfiguredText')}
        action={{ to: href('dashboard'), label: t('notFound.toDashboard') }}
      />
    );
  }
  return (
    <SectionCard id="deepcloud-not-connected" title={t('deepcloud.notConnectedTitle')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>{t('deepcloud.intro')}</Typography>
        <Typography>{t('deepcloud.notConnectedText')}</Typography>
        {mayConnect ? (
          <ConnectButton
            authorization={state.authorization}
            account={account}
            label={t('deepcloud.connect')}
            variant="contained"
          />
        ) : (
          <Alert severity="info">{t('deepcloud.whoCanConnect')}</Alert>
        )}
      </Stack>
    </SectionCard>
  );
}

function Connected({
  connection,
  authorization,
  account,
  mayConnect,
}: {
  connection: CloudConnection;
  authorization: CloudAuthorization | null;
  account: string;
  mayConnect: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage;
  const confirm = useConfirm();
  const disconnect = useDisconnectCloud(account);
  const navigate = useNavigate();
  const needsReconnect = connection.status === 'NEEDS_RECONNECT';
  const cloudUser = [connection.cloudUser.name, connection.cloudUser.email].filter(Boolean).join(' · ');
  const onDisconnect = async () => {
    const ok = await confirm({
      title: t('deepcloud.disconnectTitle'),
      message: t('deepcloud.disconnectMessage'),
      confirmLabel: t('deepcloud.disconnect'),
      cancelLabel: t('deepcloud.disconnectKeep'),
      destructive: true,
    });
    // Afterwards the account's page shows how to connect again (this connection's address would say it is gone).
    if (ok)
      disconnect.mutate(undefined, { onSuccess: () => void navigate(href('deepcloud'), { replace: true }) });
  };
  return (
    <Stack spacing={3}>
      <SectionCard id="deepcloud-connection" title={t('deepcloud.connectionHeading')}>
        <Stack spacing={2.5}>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('deepcloud.status')}
            </Typography>
            <DotChip
              color={needsReconnect ? 'warning' : 'success'}
              label={t(`deepcloud.statuses.${connection.status}`)}
            />
          </Stack>
          {needsReconnect && (
            <Alert severity="warning">
              {mayConnect ? t('deepcloud.needsReconnect') : t('deepcloud.needsReconnectAsk')}
            </Alert>
          )}
          <FactList columns={2}>
            <Fact label={t('deepcloud.connectedBy')}>
              {connection.connectedBy?.name ?? t('deepcloud.connectedByGone')}
            </Fact>
            <Fact label={t('deepcloud.connectedAt')}>{formatDateTime(connection.connectedAt, locale)}</Fact>
            <Fact label={t('deepcloud.cloudUser')}>{cloudUser || connection.cloudUser.subject}</Fact>
            <Fact label={t('deepcloud.refreshedAt')}>{formatDateTime(connection.refreshedAt, locale)}</Fact>
          </FactList>
          <div>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }} id="deepcloud-scopes">
              {t('deepcloud.scopes')}
            </Typography>
            <Stack
              direction="row"
              component="ul"
              aria-labelledby="deepcloud-scopes"
              sx={{ flexWrap: 'wrap', gap: 1, m: 0, p: 0, listStyle: 'none' }}
            >
              {connection.scopes.map((scope) => (
                <li key={scope}>
                  <Chip size="small" label={scope} />
                </li>
              ))}
            </Stack>
          </div>
          {mayConnect ? (
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
              {authorization && (
                <ConnectButton
                  authorization={authorization}
                  account={account}
                  label={t('deepcloud.reconnect')}
                  variant={needsReconnect ? 'contained' : 'outlined'}
                />
              )}
              <Button
                color="error"
                variant="outlined"
                onClick={() => void onDisconnect()}
                disabled={disconnect.isPending}
              >
                {t('deepcloud.disconnect')}
              </Button>
            </Stack>
          ) : (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('deepcloud.whoCanConnect')}
            </Typography>
          )}
        </Stack>
      </SectionCard>
      {/* The cloud no longer answers for a connection that needs reconnecting: the warning above says so. */}
      {!needsReconnect && (
        <SectionCard id="deepcloud-organizations" title={t('deepcloud.organizationsHeading')}>
          <OrganizationsList account={account} connection={connection.uuid} />
        </SectionCard>
      )}
    </Stack>
  );
}

/**
 * The cloud connection page, for the account (no uuid) or for one connection (as the connect callback opens
 * it): not configured, not connected with the way to connect, or the connection with its organisations. A uuid that is not the account's connection any more says so and links to the current.
 */
export function CloudConnectionView({ uuid }: { uuid?: string }) {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  const query = useQuery({ ...cloudStateQuery(account?.uuid ?? ''), enabled: Boolean(account) });
  const mayConnect = useMayCall(deepcloudRoutes.connectCloud);
  const title = uuid ? t('routes.deepcloudConnection') : t('routes.deepcloud');

  let content;
  if (!account) content = null;
  else if (query.isError) {
    content = <RetryAlert message={t('deepcloud.loadFailed')} query={query} />;
  } else if (!query.data) {
    content = <Skeleton variant="rounded" height={240} aria-busy="true" />;
  } else if (uuid && query.data.connection?.uuid !== uuid) {
    content = (
      <EmptyState
        icon={CloudOffOutlined}
        title={t('deepcloud.goneTitle')}
        text={t('deepcloud.goneText')}
        action={{ to: href('deepcloud'), label: t('deepcloud.goneLink') }}
      />
    );
  } else if (query.data.connection) {
    content = (
      <Connected
        connection={query.data.connection}
        authorization={query.data.authorization}
        account={account.uuid}
        mayConnect={mayConnect}
      />
    );
  } else {
    content = <NotConnected state={query.data} account={account.uuid} mayConnect={mayConnect} />;
  }
  return <Page title={title}>{content}</Page>;
}
