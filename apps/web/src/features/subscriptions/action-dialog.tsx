import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CANCEL_COMMENT_MAX,
  CANCEL_REASONS,
  type BillingPeriod,
  type CancelReason,
  type Plan,
  type Subscription,
  type SubscriptionAction,
  type SubscriptionPreview,
} from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { FormSelect, FormTextField, RuleForm, useRuleForm, type RuleFunction } from '@/forms/index.ts';
import { later } from '@/i18n/later.ts';
import { useConfirmSubscription, usePreviewSubscription } from './api.ts';
import { PreviewDetails } from './preview-details.tsx';
import { formatMoney } from '@/i18n/format.ts';

/** What the user set out to do: a plan, period or seat change, a cancellation, or taking one back. */
export type Flow =
  | { kind: 'change'; plan: Plan; period: BillingPeriod; seats: number; title: string }
  | { kind: 'cancel' }
  | { kind: 'resume' };

/**
 * The seat rule the server enforces: a whole number, never below the seats in use (members and open
 * invitations), never above the plan's limit.
 */
export function seatsRule(min: number, max: number | null): RuleFunction {
  return (value) => {
    const seats = Number(value);
    if (!Number.isInteger(seats)) return later('subscriptions.rules.seatsWhole');
    if (seats < min) return later('subscriptions.rules.seatsMin', { min });
    if (max !== null && seats > max) return later('subscriptions.rules.seatsMax', { max });
    return true;
  };
}

/** Refusals the server explains with a code (409): the subscription is not in a state the action fits. */
const CONFLICTS = ['NO_CHANGE', 'NOTHING_TO_CANCEL', 'ALREADY_CANCELLED', 'NOT_CANCELLED'] as const;
type Conflict = (typeof CONFLICTS)[number];

type Notice =
  { kind: 'outdated' | 'failed' | 'previewFailed' | 'denied' } | { kind: 'conflict'; code: Conflict } | null;

/** A refusal of the preview or confirmation as the notice the dialog shows (422 field errors go to fields). */
function noticeFor(error: unknown, fallback: 'failed' | 'previewFailed'): Notice {
  if (error instanceof ApiError && error.status === 403) return { kind: 'denied' };
  if (error instanceof ApiError && error.status === 409) {
    const code = CONFLICTS.find((known) => known === error.code);
    if (code) return { kind: 'conflict', code };
  }
  return { kind: fallback };
}

function ChangeForm({
  id,
  flow,
  subscription,
  draft,
  onAction,
}: {
  id: string;
  flow: Extract<Flow, { kind: 'change' }>;
  subscription: Subscription;
  draft: SubscriptionAction | null;
  onAction: (action: SubscriptionAction) => Promise<void>;
}) {
  const { t } = useTranslation();
  const seats = draft?.action === 'CHANGE' ? draft.seats : flow.seats;
  const form = useRuleForm<{ seats: string }>({ defaultValues: { seats: String(seats) } });
  const min = Math.max(1, subscription.seatsInUse);
  return (
    <RuleForm
      form={form}
      id={id}
      aria-label={flow.title}
      onSubmit={({ seats }) =>
        onAction({
          action: 'CHANGE',
          planCode: flow.plan.code,
          billingPeriod: flow.period,
          seats: Number(seats),
        })
      }
    >
      <FormTextField
        name="seats"
        type="number"
        label={t('subscriptions.dialog.seats')}
        helperText={t('subscriptions.dialog.seatsHelp', { min })}
        rules={['required', seatsRule(min, flow.plan.maxSeats)]}
        slotProps={{ htmlInput: { min, max: flow.plan.maxSeats ?? undefined, step: 1 } }}
        sx={{ mt: 1 }}
        fullWidth
      />
    </RuleForm>
  );
}

function CancelForm({
  id,
  draft,
  onAction,
}: {
  id: string;
  draft: SubscriptionAction | null;
  onAction: (action: SubscriptionAction) => Promise<void>;
}) {
  const { t } = useTranslation();
  const before = draft?.action === 'CANCEL' ? draft : null;
  const form = useRuleForm<{ reason: CancelReason | ''; comment: string }>({
    defaultValues: { reason: before?.reason ?? '', comment: before?.comment ?? '' },
  });
  return (
    <RuleForm
      form={form}
      id={id}
      aria-label={t('subscriptions.dialog.cancelTitle')}
      onSubmit={({ reason, comment }) =>
        onAction({ action: 'CANCEL', reason: reason as CancelReason, comment: comment.trim() || null })
      }
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Typography>{t('subscriptions.dialog.cancelText')}</Typography>
        <FormSelect
          name="reason"
          label={t('subscriptions.dialog.reason')}
          rules="required"
          options={CANCEL_REASONS.map((reason) => ({
            value: reason,
            label: t(`subscriptions.reasons.${reason}`),
          }))}
        />
        <FormTextField
          name="comment"
          label={t('subscriptions.dialog.comment')}
          rules={{ max: CANCEL_COMMENT_MAX }}
          multiline
          minRows={3}
        />
      </Stack>
    </RuleForm>
  );
}

/**
 * One action from choice to confirmation. Step one asks what the action needs (seats; a reason to cancel);
 * step two shows the server's preview and confirms it with the previewed charge. When the server refuses the
 * confirmation because the preview is outdated (409), the dialog fetches a new preview, shows it in place of
 * the old one and says so; the user confirms again or leaves.
 */
export function ActionDialog({
  accountUuid,
  flow,
  subscription,
  plans,
  onClose,
}: {
  accountUuid: string;
  flow: Flow;
  subscription: Subscription;
  plans: readonly Plan[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const formId = useId();
  const queryClient = useQueryClient();
  const previewMutation = usePreviewSubscription(accountUuid);
  const confirmMutation = useConfirmSubscription(accountUuid);
  const [step, setStep] = useState<{ action: SubscriptionAction; preview: SubscriptionPreview } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  // The last previewed action: going back to the form keeps what the user entered.
  const [draft, setDraft] = useState<SubscriptionAction | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  const title =
    flow.kind === 'change'
      ? flow.title
      : flow.kind === 'cancel'
        ? t('subscriptions.dialog.cancelTitle')
        : t('subscriptions.dialog.resumeTitle');

  /** Asks the server what the action would do; 422 field errors are thrown on to the form. */
  const preview = async (action: SubscriptionAction, after: Notice = null) => {
    setNotice(null);
    try {
      const answer = await previewMutation.mutateAsync(action);
      setStep({ action, preview: answer });
      setDraft(action);
      setNotice(after);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.fields) throw error;
      setNotice(noticeFor(error, 'previewFailed'));
    }
  };

  // Taking a cancellation back needs no input: its preview is asked for at once.
  const resumeStarted = useRef(false);
  useEffect(() => {
    if (flow.kind !== 'resume' || resumeStarted.current) return;
    resumeStarted.current = true;
    void preview({ action: 'RESUME' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the dialog opens
  }, []);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice, step]);

  const confirm = async () => {
    if (!step) return;
    setNotice(null);
    try {
      await confirmMutation.mutateAsync({
        action: step.action,
        expectedChargeMinor: step.preview.charge?.totals.totalMinor ?? 0,
      });
      onClose();
    } catch (error) {
      // An outdated preview is replaced by a new one; any other refusal leaves the page to show what changed.
      if (error instanceof ApiError && error.code === 'PREVIEW_OUTDATED') {
        await preview(step.action, { kind: 'outdated' });
      } else {
        setNotice(noticeFor(error, 'failed'));
        void queryClient.invalidateQueries({ queryKey: ['subscriptions', accountUuid] });
      }
    }
  };

  const busy = previewMutation.isPending || confirmMutation.isPending;
  const charge = step?.preview.charge;
  const confirmLabel =
    flow.kind === 'cancel'
      ? t('subscriptions.dialog.confirmCancel')
      : flow.kind === 'resume'
        ? t('subscriptions.dialog.confirmResume')
        : charge && charge.totals.totalMinor > 0
          ? t('subscriptions.dialog.confirmCharge', {
              amount: formatMoney(charge.totals.totalMinor, charge.totals.currency),
            })
          : t('subscriptions.dialog.confirm');

  let content: ReactNode;
  if (step) {
    content = <PreviewDetails preview={step.preview} plans={plans} cancelling={flow.kind === 'cancel'} />;
  } else if (flow.kind === 'change') {
    content = (
      <ChangeForm id={formId} flow={flow} subscription={subscription} draft={draft} onAction={preview} />
    );
  } else if (flow.kind === 'cancel') {
    content = <CancelForm id={formId} draft={draft} onAction={preview} />;
  } else {
    content = busy && <CircularProgress aria-label={t('subscriptions.loading')} />;
  }

  return (
    // The preview's table of lines needs the width the invoice dialog has; the forms need less.
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth={step ? 'md' : 'sm'}
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* The preview holds no control: it is focusable itself, so a keyboard can scroll it on a small screen. */}
      <DialogContent {...(step && { tabIndex: 0, role: 'region', 'aria-labelledby': titleId })}>
        <Stack spacing={2}>
          {notice && (
            <Alert
              ref={noticeRef}
              tabIndex={-1}
              severity={notice.kind === 'outdated' ? 'warning' : 'error'}
              role="alert"
            >
              {notice.kind === 'conflict'
                ? t(`subscriptions.conflicts.${notice.code}`)
                : t(`subscriptions.dialog.${notice.kind}`)}
            </Alert>
          )}
          {content}
        </Stack>
      </DialogContent>
      <DialogActions>
        {step && flow.kind !== 'resume' ? (
          <Button
            color="inherit"
            disabled={busy}
            onClick={() => {
              setStep(null);
              setNotice(null);
            }}
          >
            {t('subscriptions.dialog.back')}
          </Button>
        ) : (
          <Button color="inherit" disabled={busy} onClick={onClose}>
            {t('common.cancel')}
          </Button>
        )}
        {step ? (
          <Button
            variant="contained"
            color={flow.kind === 'cancel' ? 'error' : 'primary'}
            disabled={busy}
            onClick={() => void confirm()}
          >
            {confirmLabel}
          </Button>
        ) : (
          flow.kind !== 'resume' && (
            <Button type="submit" form={formId} variant="contained" disabled={busy}>
              {t('subscriptions.dialog.toPreview')}
            </Button>
          )
        )}
      </DialogActions>
    </Dialog>
  );
}
