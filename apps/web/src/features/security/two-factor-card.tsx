import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityOverview } from '@portal/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import { ApiError } from '@/api/client.ts';
import { saveFile } from '@/api/save-file.ts';
import { SectionCard } from '@/ui/section-card.tsx';
import { useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useStartTotp } from './api.ts';

/** Fewer unused recovery codes than this: the card warns to make new ones. */
const FEW_CODES = 4;

/** The secret in groups of four, as authenticator apps show and take it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** The text of a failed two-factor request, in the user's language. */
function useErrorText() {
  const { t } = useTranslation();
  return (error: unknown) => {
    if (!(error instanceof ApiError)) return t('security.totp.failed');
    if (error.fields?.password === 'wrongPassword') return t('security.totp.passwordWrong');
    switch (error.code) {
      case 'INVALID_CODE':
        return t('security.totp.codeInvalid');
      case 'LOCKED': {
        const minutes = Math.max(1, Math.ceil(Number(error.fields?.retryAfter ?? 60) / 60));
        return t('security.totp.tooMany', { count: minutes, minutes });
      }
      default:
        return t('security.totp.failed');
    }
  };
}

/**
 * The card "Zwei-Faktor-Authentifizierung" of the security tab: whether an authenticator app is on, how many recovery
 * codes are left (with a warning when few), and the dialogs to set it up, make new recovery codes or turn it off.
 */
export function TwoFactorCard({
  overview,
}: {
  overview: Pick<SecurityOverview, 'totpEnabled' | 'recoveryCodesLeft'>;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'enrol' | 'disable' | 'regenerate' | null>(null);
  const close = () => setDialog(null);
  const on = overview.totpEnabled;
  const left = overview.recoveryCodesLeft;

  return (
    <SectionCard id="security-totp" title={t('security.totp.title')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography>{t('security.totp.app')}</Typography>
          <Chip
            size="small"
            color={on ? 'success' : 'default'}
            label={on ? t('security.totp.on') : t('security.totp.off')}
            data-testid="totp-state"
          />
        </Stack>
        <Typography sx={{ color: 'text.secondary' }}>
          {on ? t('security.totp.onText') : t('security.totp.offText')}
        </Typography>
        {on &&
          (left < FEW_CODES ? (
            <Alert severity="warning" data-testid="recovery-left">
              {t('security.totp.fewCodes', { count: left })}
            </Alert>
          ) : (
            <Typography data-testid="recovery-left">
              {t('security.totp.codesLeft', { count: left })}
            </Typography>
          ))}
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
          {on ? (
            <>
              <Button variant="outlined" onClick={() => setDialog('regenerate')}>
                {t('security.totp.regenerate')}
              </Button>
              <Button color="error" onClick={() => setDialog('disable')}>
                {t('security.totp.disable')}
              </Button>
            </>
          ) : (
            <Button variant="contained" onClick={() => setDialog('enrol')}>
              {t('security.totp.setUp')}
            </Button>
          )}
        </Stack>
      </Stack>
      {dialog === 'enrol' && <EnrolDialog onClose={close} />}
      {dialog === 'disable' && <PasswordDialog kind="disable" onClose={close} />}
      {dialog === 'regenerate' && <PasswordDialog kind="regenerate" onClose={close} />}
    </SectionCard>
  );
}

/** Setting up the app in three steps: scan (or type) the secret, enter the first code, keep the recovery codes. */
function EnrolDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [step, setStep] = useState(0);
  const [code, setCode] = useState('');
  const asked = useRef(false);
  const { mutate } = start;

  useEffect(() => {
    // One secret per opening (a development double run of effects must not replace the one just shown).
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  const enrolment = start.data;
  const codes = confirm.data;
  const steps = [t('security.totp.stepScan'), t('security.totp.stepCode'), t('security.totp.stepCodes')];

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.trim(), { onSuccess: () => setStep(2) });
  };

  return (
    <Dialog
      open
      // The recovery codes are shown once: the dialog closes from that step only with "Fertig".
      onClose={step === 2 ? undefined : onClose}
      aria-labelledby="totp-enrol-title"
    >
      <DialogTitle id="totp-enrol-title">{t('security.totp.enrolTitle')}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {steps.map((label) => (
            <Step key={label}>
              <StepLabel>{label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 &&
          (start.isError ? (
            <Alert severity="error">{errorText(start.error)}</Alert>
          ) : !enrolment ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('security.totp.preparing')} />
            </Box>
          ) : (
            <Stack spacing={2} sx={{ alignItems: 'center' }}>
              <Typography sx={{ alignSelf: 'stretch' }}>{t('security.totp.scanText')}</Typography>
              <Box
                component="img"
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
                alt={t('security.totp.qrAlt', { issuer: enrolment.issuer, label: enrolment.label })}
                sx={{ width: 200, height: 200, bgcolor: '#ffffff', borderRadius: 1, p: 1 }}
              />
              <Box sx={{ alignSelf: 'stretch' }}>
                <Typography variant="body2" id="totp-secret-label" sx={{ color: 'text.secondary' }}>
                  {t('security.totp.secretLabel')}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography
                    aria-labelledby="totp-secret-label"
                    data-testid="totp-secret"
                    sx={{
                      fontFamily: 'monospace',
                      fontSize: '1.05rem',
                      userSelect: 'all',
                      wordBreak: 'break-word',
                    }}
                  >
                    {grouped(enrolment.secret)}
                  </Typography>
                  <CopyButton text={enrolment.secret} label={t('security.totp.copySecret')} />
                </Stack>
              </Box>
            </Stack>
          ))}
        {step === 1 && (
          <Box component="form" id="totp-code-form" onSubmit={submitCode} noValidate>
            <Typography sx={{ mb: 2 }}>{t('security.totp.codeText')}</Typography>
            <TextField
              autoFocus
              fullWidth
              label={t('security.totp.codeLabel')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              error={confirm.isError}
              helperText={confirm.isError ? errorText(confirm.error) : t('security.totp.codeHint')}
              slotProps={{
                htmlInput: {
                  inputMode: 'numeric',
                  autoComplete: 'one-time-code',
                  maxLength: 7,
                  spellCheck: false,
                },
              }}
            />
          </Box>
        )}
        {step === 2 && codes && <RecoveryCodesView codes={codes} />}
      </DialogContent>
      <DialogActions>
        {step === 0 && (
          <>
            <Button onClick={onClose}>{t('security.totp.cancel')}</Button>
            <Button variant="contained" disabled={!enrolment} onClick={() => setStep(1)}>
              {t('security.totp.next')}
            </Button>
          </>
        )}
        {step === 1 && (
          <>
            <Button onClick={() => setStep(0)}>{t('security.totp.back')}</Button>
            <Button
              variant="contained"
              type="submit"
              form="totp-code-form"
              disabled={confirm.isPending || code.trim() === ''}
            >
              {t('security.totp.confirm')}
            </Button>
          </>
        )}
        {step === 2 && <SavedAndClose onClose={onClose} />}
      </DialogActions>
    </Dialog>
  );
}

/** "Ich habe die Codes gesichert" and the button that closes once it is ticked. */
function SavedAndClose({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  return (
    <Stack
      direction="row"
      sx={{ width: '100%', justifyContent: 'space-between', alignItems: 'center', pl: 1 }}
    >
      <FormControlLabel
        control={<Checkbox checked={saved} onChange={(event) => setSaved(event.target.checked)} />}
        label={t('security.totp.saved')}
      />
      <Button variant="contained" disabled={!saved} onClick={onClose}>
        {t('security.totp.done')}
      </Button>
    </Stack>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <>
      <Button size="small" startIcon={<ContentCopy aria-hidden />} onClick={copy}>
        {label}
      </Button>
      <Box component="span" role="status" sx={{ fontSize: '0.875rem', color: 'text.secondary' }}>
        {copied ? t('security.totp.copied') : ''}
      </Box>
    </>
  );
}

/** The recovery codes, shown once: as a list, to copy, and to download as a text file. */
function RecoveryCodesView({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const text = [t('security.totp.fileHeading'), '', ...codes, ''].join('\n');
  // Made here, not downloaded: saved the way every downloaded file is.
  const download = () =>
    saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), t('security.totp.fileName'));
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{t('security.totp.codesText')}</Alert>
      <Box
        component="ul"
        aria-label={t('security.totp.codesLabel')}
        data-testid="recovery-codes"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 2,
          display: 'grid',
          gridTemplateColumns: 'repeat(2, 1fr)',
          gap: 1,
          fontFamily: 'monospace',
          fontSize: '1.05rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <CopyButton text={codes.join('\n')} label={t('security.totp.copyCodes')} />
        <Button size="small" startIcon={<Download aria-hidden />} onClick={download}>
          {t('security.totp.downloadCodes')}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * The current password before the app is turned off or its recovery codes are replaced; new codes are shown in the
 * same dialog, once.
 */
function PasswordDialog({ kind, onClose }: { kind: 'disable' | 'regenerate'; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const disable = useDisableTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const mutation = kind === 'disable' ? disable : regenerate;
  const [password, setPassword] = useState('');
  const codes = regenerate.data;
  const titleId = `totp-${kind}-title`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'disable') disable.mutate(password, { onSuccess: onClose });
    else regenerate.mutate(password);
  };

  return (
    <Dialog open onClose={codes ? undefined : onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {kind === 'disable' ? t('security.totp.disableTitle') : t('security.totp.regenerateTitle')}
      </DialogTitle>
      <DialogContent>
        {codes ? (
          <RecoveryCodesView codes={codes} />
        ) : (
          <Box component="form" id={`totp-${kind}-form`} onSubmit={submit} noValidate>
            <Typography sx={{ mb: 2 }}>
              {kind === 'disable' ? t('security.totp.disableText') : t('security.totp.regenerateText')}
            </Typography>
            <TextField
              autoFocus
              fullWidth
              type="password"
              label={t('security.totp.password')}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={mutation.isError}
              helperText={mutation.isError ? errorText(mutation.error) : undefined}
              slotProps={{ htmlInput: { autoComplete: 'current-password' } }}
            />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {codes ? (
          <SavedAndClose onClose={onClose} />
        ) : (
          <>
            <Button onClick={onClose}>{t('security.totp.cancel')}</Button>
            <Button
              variant="contained"
              color={kind === 'disable' ? 'error' : 'primary'}
              type="submit"
              form={`totp-${kind}-form`}
              disabled={mutation.isPending || password === ''}
            >
              {kind === 'disable' ? t('security.totp.disableAction') : t('security.totp.regenerateAction')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
