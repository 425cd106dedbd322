import { useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { INVITE_EMAILS_MAX, isEmailAddress, splitEmails } from '@portal/contract';
import { later, showText } from '@/i18n/later.ts';

/** Why the server refused an address (per address, from a 409 or 422 answer). */
export type AddressProblem = 'alreadyMember' | 'alreadyInvited' | 'email' | 'duplicate';

/** Adds the addresses typed so far to the list, each once. */
function merge(current: string[], text: string): string[] {
  const known = new Set(current.map((email) => email.toLowerCase()));
  return [...current, ...splitEmails(text).filter((email) => !known.has(email.toLowerCase()))];
}

/** The form's rule for the list: at least one address, each well formed, at most INVITE_EMAILS_MAX. */
function checkEmails(value: unknown): true | string {
  const emails = Array.isArray(value) ? (value as string[]) : [];
  if (!emails.length) return later('members.form.emailsRequired');
  const wrong = emails.filter((email) => !isEmailAddress(email.trim()));
  if (wrong.length) return later('members.form.emailsInvalid', { emails: wrong.join(', ') });
  if (emails.length > INVITE_EMAILS_MAX)
    return later('members.form.emailsTooMany', { max: INVITE_EMAILS_MAX });
  return true;
}

/**
 * Email addresses as chips: typing a comma (the combo box entry separator), Enter or leaving the field turns the
 * text into chips; pasting a comma-separated list adds each address. Addresses the server refused are marked, and
 * named below the field with the reason.
 */
export function EmailChipsField({
  name,
  label,
  problems,
}: {
  name: string;
  label: string;
  problems: Record<string, AddressProblem>;
}) {
  const { t } = useTranslation();
  const { control, trigger } = useFormContext();
  const { field, fieldState } = useController({ name, control, rules: { validate: checkEmails } });
  const [text, setText] = useState('');
  const value = (field.value as string[] | undefined) ?? [];

  const commit = (next: string[]) => {
    field.onChange(next);
    if (fieldState.error) void trigger(name);
  };
  const flush = () => {
    if (text.trim()) commit(merge(value, text));
    setText('');
  };

  const refused = value.filter((email) => problems[email.toLowerCase()]);
  const ownError = fieldState.error?.message ? showText(fieldState.error.message, t) : undefined;
  const helper = [
    ownError,
    ...refused.map((email) => t(`members.addressProblems.${problems[email.toLowerCase()]!}`, { email })),
  ].filter(Boolean);

  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={value}
      inputValue={text}
      onInputChange={(_event, next, reason) => {
        if (reason === 'reset') return;
        // A comma ends an address: everything before the last comma becomes chips.
        if (/[,;]/.test(next)) {
          const cut = Math.max(next.lastIndexOf(','), next.lastIndexOf(';'));
          commit(merge(value, next.slice(0, cut)));
          setText(next.slice(cut + 1).trimStart());
        } else setText(next);
      }}
      onChange={(_event, next) => commit(merge([], (next as string[]).join(',')))}
      onBlur={() => {
        flush();
        field.onBlur();
        void trigger(name);
      }}
      renderValue={(emails, getItemProps) =>
        emails.map((email, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          const bad = Boolean(problems[email.toLowerCase()]) || !isEmailAddress(email.trim());
          return (
            <Chip
              key={key}
              {...itemProps}
              label={email}
              size="small"
              color={bad ? 'error' : 'default'}
              variant={bad ? 'outlined' : 'filled'}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          inputRef={field.ref}
          label={label}
          required
          error={helper.length > 0}
          helperText={helper.length ? helper.join(' ') : t('members.form.emailsHelp')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, autoComplete: 'off', inputMode: 'email' },
          }}
        />
      )}
    />
  );
}
