import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  TWO_FACTOR_GRACE_DAYS,
  type TwoFactorPolicy,
  type UpdateTwoFactorPolicyBody,
} from '@portal/contract';
import { formatDate } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { twoFactorPolicyQuery, twoFactorPreviewQuery, useUpdateTwoFactorPolicy } from './api.ts';

const DAY_MS = 86_400_000;
type GraceDays = UpdateTwoFactorPolicyBody['graceDays'];

/** The state in words: since when, until when the grace period runs, how many still have no second factor. */
function PolicyState({ policy }: { policy: TwoFactorPolicy }) {
  const { t } = useTranslation();
  // The time the card was opened: whether the grace period is still running, read once.
  const [openedAt] = useState(() => Date.now());
  const lines: string[] = [];
  if (!policy.enabled) lines.push(t('company.twoFactor.off'));
  else {
    lines.push(
      t('company.twoFactor.since', {
        date: formatDate(policy.enabledAt!),
        name: policy.enabledBy?.name || policy.enabledBy?.email || '—',
      }),
    );
    const until = policy.graceUntil!;
    lines.push(
      policy.graceDays > 0 && Date.parse(until) > openedAt
        ? t('company.twoFactor.graceRuns', { date: formatDate(until) })
        : t('company.twoFactor.graceOver', { date: formatDate(until) }),
    );
  }
  if (policy.membersWithout !== null) {
    lines.push(
      policy.membersWithout === 0
        ? t('company.twoFactor.withoutNone')
        : t('company.twoFactor.without', { count: policy.membersWithout }),
    );
  }
  return (
    <Stack spacing={0.5} aria-live="polite">
      {lines.map((line) => (
        <Typography key={line} variant="body2">
          {line}
        </Typography>
      ))}
    </Stack>
  );
}

/**
 * The account's rule that members use a second factor (company profile). The owner switches it on after seeing
 * who will be told (a confirmation lists them), with a grace period; everyone else with access sees the state.
 */
export function TwoFactorPolicyCard({ account, isOwner }: { account: string; isOwner: boolean }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const policy = useQuery(twoFactorPolicyQuery(account));
  const update = useUpdateTwoFactorPolicy(account);
  const [graceDays, setGraceDays] = useState<number | null>(null);

  if (!policy.data) {
    if (policy.isError) return <Alert severity="error">{policy.error.message}</Alert>;
    return <CircularProgress size={24} aria-label={t('company.twoFactor.title')} />;
  }
  const current = policy.data;
  const days = graceDays ?? current.graceDays;
  const embedded = current.provider === 'embedded';

  async function switchOn() {
    let message = (
      <Typography variant="body2">
        {t('company.twoFactor.confirmGrace', { date: formatDate(new Date(Date.now() + days * DAY_MS)) })}
      </Typography>
    );
    if (embedded) {
      const preview = await queryClient.fetchQuery(twoFactorPreviewQuery(account, true));
      const total = preview.meta.total;
      message = (
        <Stack spacing={1}>
          <Typography variant="body2">
            {total === 0
              ? t('company.twoFactor.confirmNobody')
              : t('company.twoFactor.confirmIntro', { count: total })}
          </Typography>
          {total > 0 && (
            <ul
              style={{ margin: 0, paddingInlineStart: '1.25rem' }}
              aria-label={t('company.twoFactor.title')}
            >
              {preview.data.map((member) => (
                <li key={member.userUuid}>
                  <Typography variant="body2">
                    {member.name ? `${member.name} (${member.email})` : member.email}
                  </Typography>
                </li>
              ))}
              {total > preview.data.length && (
                <li>
                  <Typography variant="body2">
                    {t('company.twoFactor.confirmMore', { count: total - preview.data.length })}
                  </Typography>
                </li>
              )}
            </ul>
          )}
          {message}
        </Stack>
      );
    }
    const ok = await confirm({
      title: t('company.twoFactor.confirmTitle'),
      message,
      confirmLabel: t('company.twoFactor.confirmOn'),
    });
    if (ok) await update.mutateAsync({ enabled: true, graceDays: days as GraceDays });
  }

  async function switchOff() {
    const ok = await confirm({
      title: t('company.twoFactor.confirmOffTitle'),
      message: t('company.twoFactor.confirmOffText'),
      confirmLabel: t('company.twoFactor.confirmOff'),
      destructive: true,
    });
    if (ok) await update.mutateAsync({ enabled: false });
  }

  const readOnly = !isOwner || update.isPending;
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      {!embedded && <Alert severity="info">{t('company.twoFactor.external')}</Alert>}
      <FormControlLabel
        control={
          <Switch
            checked={current.enabled}
            disabled={readOnly}
            onChange={(event) => void (event.target.checked ? switchOn() : switchOff())}
          />
        }
        label={t('company.twoFactor.switch')}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label={t('company.twoFactor.grace')}
          value={days}
          disabled={readOnly}
          onChange={(event) => setGraceDays(Number(event.target.value))}
          sx={{ minWidth: 200 }}
        >
          {TWO_FACTOR_GRACE_DAYS.map((value) => (
            <MenuItem key={value} value={value}>
              {value === 0
                ? t('company.twoFactor.graceNone')
                : t('company.twoFactor.graceDays', { count: value })}
            </MenuItem>
          ))}
        </TextField>
        {current.enabled && isOwner && days !== current.graceDays && (
          <Button
            variant="outlined"
            disabled={update.isPending}
            onClick={() => void update.mutateAsync({ enabled: true, graceDays: days as GraceDays })}
          >
            {t('company.twoFactor.saveGrace')}
          </Button>
        )}
      </Stack>
      <PolicyState policy={current} />
      {!isOwner && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('company.twoFactor.ownerOnly')}
        </Typography>
      )}
    </Stack>
  );
}
