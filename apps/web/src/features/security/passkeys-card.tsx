import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { PASSKEY_NAME_MAX, PASSKEYS_MAX, type Passkey } from '@portal/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Key from '@mui/icons-material/Key';
import { ApiError } from '@/api/errors.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { formatDate } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { passkeysQuery, useAddPasskey, useRemovePasskey, useRenamePasskey } from './api.ts';

/** What the add dialog says after the browser's prompt or the server refused: a quiet info or an error. */
type Outcome = {
  severity: 'info' | 'error';
  text: 'cancelled' | 'alreadyRegistered' | 'limit' | 'failed';
} | null;

/**
 * The browser's prompt ends without a passkey when the person cancels it or lets it time out (NotAllowedError,
 * AbortError), or when the device already holds one for this person (InvalidStateError): none of these is an error.
 * Field errors of the API (null) go onto the name field.
 */
function outcomeOf(error: unknown): Outcome {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return { severity: 'info', text: 'cancelled' };
  if (name === 'InvalidStateError') return { severity: 'info', text: 'alreadyRegistered' };
  if (error instanceof ApiError && error.code === 'PASSKEY_LIMIT')
    return { severity: 'error', text: 'limit' };
  if (error instanceof ApiError && error.fields) return null;
  return { severity: 'error', text: 'failed' };
}

/** Asks a name (a sensible default), then the browser's passkey prompt; the server checks and stores the answer. */
function AddPasskeyDialog({ defaultName, onClose }: { defaultName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useRuleForm<{ name: string }>({ defaultValues: { name: defaultName } });
  const add = useAddPasskey();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const onSubmit = async ({ name }: { name: string }) => {
    setOutcome(null);
    try {
      await add.mutateAsync(name.trim());
      onClose();
    } catch (error) {
      const next = outcomeOf(error);
      if (next === null) throw error;
      setOutcome(next);
    }
  };

  return (
    <Dialog open onClose={add.isPending ? undefined : onClose} aria-labelledby="passkey-add-title">
      <RuleForm form={form} onSubmit={onSubmit} aria-labelledby="passkey-add-title">
        <DialogTitle id="passkey-add-title">{t('security.passkeys.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography sx={{ color: 'text.secondary' }}>{t('security.passkeys.addText')}</Typography>
            <FormTextField
              name="name"
              label={t('security.passkeys.name')}
              rules={`required|max:${PASSKEY_NAME_MAX}`}
              autoFocus
              disabled={add.isPending}
            />
            {add.isPending && (
              <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
                <CircularProgress size={20} aria-hidden />
                <Typography>{t('security.passkeys.waiting')}</Typography>
              </Stack>
            )}
            {outcome && (
              <Alert severity={outcome.severity} role={outcome.severity === 'error' ? 'alert' : 'status'}>
                {t(`security.passkeys.${outcome.text}`, { max: PASSKEYS_MAX })}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={add.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={add.isPending}>
            {t('security.passkeys.continue')}
          </Button>
        </DialogActions>
      </RuleForm>
    </Dialog>
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useRuleForm<{ name: string }>({ defaultValues: { name: passkey.name } });
  const rename = useRenamePasskey();

  const onSubmit = async ({ name }: { name: string }) => {
    await rename.mutateAsync({ id: passkey.id, name: name.trim() });
    onClose();
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="passkey-rename-title">
      <RuleForm form={form} onSubmit={onSubmit} aria-labelledby="passkey-rename-title">
        <DialogTitle id="passkey-rename-title">{t('security.passkeys.renameTitle')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <FormTextField
              name="name"
              label={t('security.passkeys.name')}
              rules={`required|max:${PASSKEY_NAME_MAX}`}
              autoFocus
            />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={rename.isPending}>
            {rename.isPending ? t('forms.saving') : t('forms.save')}
          </Button>
        </DialogActions>
      </RuleForm>
    </Dialog>
  );
}

/** "Passkey 3": the first default name no passkey of the person has yet. */
function nextDefaultName(passkeys: Passkey[], name: (n: number) => string): string {
  const taken = new Set(passkeys.map((passkey) => passkey.name));
  let number = passkeys.length + 1;
  while (taken.has(name(number))) number += 1;
  return name(number);
}

/**
 * The card "Passkeys" of the security tab: the person's passkeys (name, added, last used) with rename and remove,
 * and "Passkey hinzufügen" where the browser supports WebAuthn.
 */
export function PasskeysCard() {
  const { t } = useTranslation();
  const passkeys = useQuery(passkeysQuery);
  const remove = useRemovePasskey();
  const confirm = useConfirm();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [supported] = useState(() => browserSupportsWebAuthn());

  const onRemove = async (passkey: Passkey) => {
    const ok = await confirm({
      title: t('security.passkeys.removeTitle'),
      message: t('security.passkeys.removeMessage', { name: passkey.name }),
      confirmLabel: t('security.passkeys.removeConfirm'),
      destructive: true,
    });
    if (ok) remove.mutate(passkey);
  };

  const list = passkeys.data ?? [];
  const full = list.length >= PASSKEYS_MAX;

  return (
    <SectionCard id="security-passkeys" title={t('security.passkeys.title')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography sx={{ color: 'text.secondary' }}>{t('security.passkeys.intro')}</Typography>
        {passkeys.isPending ? (
          <CircularProgress size={24} aria-label={t('security.passkeys.loading')} />
        ) : passkeys.isError ? (
          <Alert severity="error">{t('security.passkeys.loadError')}</Alert>
        ) : list.length === 0 ? (
          <Typography>{t('security.passkeys.empty')}</Typography>
        ) : (
          <List aria-labelledby="security-passkeys" sx={{ alignSelf: 'stretch', py: 0 }}>
            {list.map((passkey) => (
              <ListItem
                key={passkey.id}
                divider
                disableGutters
                secondaryAction={
                  <Stack direction="row" spacing={0.5}>
                    <Tooltip title={t('security.passkeys.renameLabel', { name: passkey.name })}>
                      <IconButton
                        aria-label={t('security.passkeys.renameLabel', { name: passkey.name })}
                        onClick={() => setRenaming(passkey)}
                      >
                        <EditOutlined />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('security.passkeys.removeLabel', { name: passkey.name })}>
                      <IconButton
                        aria-label={t('security.passkeys.removeLabel', { name: passkey.name })}
                        onClick={() => void onRemove(passkey)}
                        disabled={remove.isPending}
                      >
                        <DeleteOutlined />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                }
                sx={{ pr: 12 }}
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Key aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={passkey.name}
                  secondary={[
                    t('security.passkeys.created', { date: formatDate(passkey.createdAt) }),
                    passkey.lastUsedAt
                      ? t('security.passkeys.lastUsed', { date: formatDate(passkey.lastUsedAt) })
                      : t('security.passkeys.neverUsed'),
                    ...(passkey.backedUp ? [t('security.passkeys.synced')] : []),
                  ].join(' · ')}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
        {!supported ? (
          <Alert severity="info">{t('security.passkeys.unsupported')}</Alert>
        ) : full ? (
          <Alert severity="info">{t('security.passkeys.limit', { max: PASSKEYS_MAX })}</Alert>
        ) : (
          <Button
            variant="outlined"
            startIcon={<Add aria-hidden />}
            onClick={() => setAdding(true)}
            disabled={passkeys.isPending}
          >
            {t('security.passkeys.add')}
          </Button>
        )}
      </Stack>
      {adding && (
        <AddPasskeyDialog
          defaultName={nextDefaultName(list, (number) => t('security.passkeys.defaultName', { number }))}
          onClose={() => setAdding(false)}
        />
      )}
      {renaming && <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} />}
    </SectionCard>
  );
}
