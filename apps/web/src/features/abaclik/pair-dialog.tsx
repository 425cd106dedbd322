import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { codeStatusQuery, useCreateActivationCode, useDevicesChanged } from './api.ts';

/** Minutes and seconds left, `m:ss`. */
function left(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The milliseconds until `until`, counted down once a second. */
function useRemaining(until: string | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return until ? Date.parse(until) - now : 0;
}

/**
 * Pairing the caller's own phone, shown while it is mounted: a new activation code as text and QR code, the time it
 * has left, and waiting for the app to use it (its state is read again every few seconds while the code is open).
 * When the app has paired, the dialog says so and the devices list is read again; an expired code can be replaced
 * by a new one.
 */
export function PairDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const create = useCreateActivationCode(account);
  const devicesChanged = useDevicesChanged(account);
  const { mutate } = create;
  const asked = useRef(false);

  useEffect(() => {
    // One code per opening (a development double run of effects must not replace the code just shown).
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  const code = create.isPending ? null : (create.data ?? null);
  const remaining = useRemaining(code?.expiresAt);
  const expiredHere = code !== null && remaining <= 0;
  const status = useQuery({
    ...codeStatusQuery(account, code?.uuid ?? ''),
    enabled: code !== null && !expiredHere,
  });
  const paired = status.data?.status === 'USED' ? status.data.device : null;
  const expired = !paired && (expiredHere || status.data?.status === 'EXPIRED');
  const pairedUuid = paired?.uuid;

  useEffect(() => {
    if (pairedUuid) void devicesChanged();
  }, [pairedUuid, devicesChanged]);

  const renew = () => mutate();

  return (
    <Dialog open onClose={onClose} aria-labelledby="pair-title">
      <DialogTitle id="pair-title">{t('abaclik.pair.title')}</DialogTitle>
      <DialogContent>
        {create.isError ? (
          <Alert severity="error">{t('abaclik.pair.failed')}</Alert>
        ) : !code ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress aria-label={t('abaclik.pair.creating')} />
          </Box>
        ) : paired ? (
          <Alert severity="success" role="status">
            {t('abaclik.pair.paired', { name: paired.name })}
          </Alert>
        ) : expired ? (
          <Alert severity="warning" role="status">
            {t('abaclik.pair.expired')}
          </Alert>
        ) : (
          <Stack spacing={2} sx={{ alignItems: 'center' }}>
            <Typography component="ol" sx={{ alignSelf: 'stretch', pl: 3, m: 0, color: 'text.secondary' }}>
              <li>{t('abaclik.pair.step1')}</li>
              <li>{t('abaclik.pair.step2')}</li>
              <li>{t('abaclik.pair.step3')}</li>
            </Typography>
            <Box
              component="img"
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.qrSvg)}`}
              alt={t('abaclik.pair.qrAlt')}
              sx={{ width: 220, height: 220, bgcolor: '#ffffff', borderRadius: 1, p: 1 }}
            />
            <Box sx={{ textAlign: 'center' }}>
              <Typography variant="body2" sx={{ color: 'text.secondary' }} id="pair-code-label">
                {t('abaclik.pair.codeLabel')}
              </Typography>
              <Typography
                aria-labelledby="pair-code-label"
                data-testid="activation-code"
                sx={{ fontFamily: 'monospace', fontSize: '2rem', fontWeight: 600, letterSpacing: '0.15em' }}
              >
                {code.code}
              </Typography>
              <Typography variant="body2" role="timer" sx={{ color: 'text.secondary' }}>
                {t('abaclik.pair.validFor', { time: left(remaining) })}
              </Typography>
            </Box>
            <Box sx={{ alignSelf: 'stretch' }} role="status">
              <Typography variant="body2" sx={{ mb: 1 }}>
                {t('abaclik.pair.waiting')}
              </Typography>
              <LinearProgress aria-label={t('abaclik.pair.waiting')} />
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {(expired || create.isError) && (
          <Button onClick={renew} disabled={create.isPending}>
            {t('abaclik.pair.newCode')}
          </Button>
        )}
        <Button onClick={onClose} variant={paired ? 'contained' : 'text'}>
          {paired ? t('abaclik.pair.done') : t('abaclik.pair.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
