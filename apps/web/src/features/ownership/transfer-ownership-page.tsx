import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate, Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import {
  confirmsAccountName,
  OWNERSHIP_TRANSFER_DAYS,
  type OwnershipPerson,
  type StartTransferBody,
} from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { href } from '@/app/href.ts';
import { FormSelect, FormTextField, RuleForm, serverFieldErrors, useRuleForm } from '@/forms/index.ts';
import { later } from '@/i18n/later.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { LinkAlert, SectionCard } from '@/ui/section-card.tsx';
import { useToast } from '@/ui/toast.tsx';
import { candidatesQuery, transferErrorMessage, useStartTransfer } from './api.ts';
import { OwnershipLoader } from './ownership-loader.tsx';

/** What the server's field errors mean, in the user's language. */
const FIELD_MESSAGES: Record<keyof StartTransferBody, string> = {
  toUserUuid: later('ownership.notAdmin'),
  confirmAccountName: later('ownership.confirmMismatch'),
};

/** The search text, passed on once typing has paused. */
function useSettled(value: string, delay = 300): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function TransferForm({ account, accountName }: { account: string; accountName: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const start = useStartTransfer(account);
  const form = useRuleForm<StartTransferBody>({ defaultValues: { toUserUuid: '', confirmAccountName: '' } });
  const [search, setSearch] = useState('');
  const settled = useSettled(search);
  const candidates = useQuery(candidatesQuery(account, settled));
  // The chosen admin stays an option while a search shows others.
  const shown = candidates.data?.data ?? [];
  const chosenUuid = useWatch({ control: form.control, name: 'toUserUuid' });
  const [chosen, setChosen] = useState<OwnershipPerson | null>(null);
  const chosenShown = shown.find((person) => person.uuid === chosenUuid);
  if (chosenShown && chosenShown !== chosen) setChosen(chosenShown);
  const people = chosen && chosen.uuid === chosenUuid && !chosenShown ? [chosen, ...shown] : shown;
  const total = candidates.data?.meta.total ?? 0;

  if (candidates.isSuccess && total === 0 && !settled) {
    return (
      <EmptyState
        icon={GroupOutlined}
        title={t('ownership.noAdminsTitle')}
        text={t('ownership.noAdminsText')}
        action={{ to: href('settings-user-management'), label: t('ownership.noAdminsAction') }}
      />
    );
  }

  const onSubmit = async (body: StartTransferBody) => {
    try {
      await start.mutateAsync({ ...body, confirmAccountName: body.confirmAccountName.trim() });
    } catch (error) {
      const reasons = serverFieldErrors(error);
      const fields = Object.keys(reasons).filter((name) => name in FIELD_MESSAGES);
      if (error instanceof ApiError && fields.length) {
        fields.forEach((name, index) =>
          form.setError(
            name as keyof StartTransferBody,
            {
              type: 'server',
              // An admin whose address is not verified cannot be offered the account (decision 193).
              message:
                reasons[name] === 'emailNotVerified'
                  ? later('ownership.notVerified')
                  : FIELD_MESSAGES[name as keyof StartTransferBody],
            },
            { shouldFocus: index === 0 },
          ),
        );
        toast.error(later('fieldIsNotCorrect', { count: fields.length }, 'validation'));
        return;
      }
      toast.error(transferErrorMessage(error));
      return;
    }
    await navigate(href('settings-ownership'));
  };

  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('routes.transferOwnership')}>
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <Typography>{t('ownership.formIntro')}</Typography>
        {(total > shown.length || settled) && (
          <TextField
            type="search"
            label={t('ownership.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            helperText={t('ownership.searchHelp', { shown: shown.length, total })}
          />
        )}
        <FormSelect
          name="toUserUuid"
          label={t('ownership.target')}
          rules="required"
          helperText={t('ownership.targetHelp')}
          options={people.map((person) => ({
            value: person.uuid,
            label: person.name ? `${person.name} (${person.email})` : person.email,
          }))}
        />
        <FormTextField
          name="confirmAccountName"
          label={t('ownership.confirm')}
          helperText={t('ownership.confirmHelp', { name: accountName })}
          autoComplete="off"
          rules={[
            'required',
            (value) =>
              confirmsAccountName(String(value ?? ''), accountName) || FIELD_MESSAGES.confirmAccountName,
          ]}
        />
        <Alert severity="warning">{t('ownership.warning')}</Alert>
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={start.isPending}>
            {start.isPending ? t('ownership.submitting') : t('ownership.submit')}
          </Button>
          <Button component={RouterLink} to={href('settings-ownership')}>
            {t('ownership.back')}
          </Button>
        </Stack>
      </Stack>
    </RuleForm>
  );
}

/** settings/ownership/transfer: the owner chooses an admin and confirms with the account's name. */
export default function TransferOwnershipPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('routes.transferOwnership')}>
      <OwnershipLoader>
        {(account, data) =>
          data.pendingTransfer ? (
            <LinkAlert severity="info" to={href('settings-ownership')} label={t('ownership.back')}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {t('ownership.alreadyPendingTitle')}
              </Typography>
              {t('ownership.alreadyPendingText')}
            </LinkAlert>
          ) : (
            <SectionCard id="ownership-transfer-form" title={t('ownership.transferHeading')}>
              <Typography sx={{ mb: 2, color: 'text.secondary' }}>
                {t('ownership.transferIntro', { days: OWNERSHIP_TRANSFER_DAYS })}
              </Typography>
              <TransferForm account={account} accountName={data.accountName} />
            </SectionCard>
          )
        }
      </OwnershipLoader>
    </Page>
  );
}
