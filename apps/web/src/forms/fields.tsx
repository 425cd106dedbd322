import { useEffect, useId, useRef, type ReactNode } from 'react';
import {
  FormProvider,
  useController,
  useFormContext,
  useWatch,
  type FieldValues,
  type SubmitHandler,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { laterT, showText } from '@/i18n/later.ts';
import type { RuleForm as RuleFormApi } from './use-rule-form.ts';
import { dependenciesOf, isRequired, validate, type Rules } from './validate.ts';

interface RuleFormProps<T extends FieldValues> {
  form: RuleFormApi<T>;
  onSubmit: SubmitHandler<T>;
  children: ReactNode;
  /** Accessible name of the form, e.g. the heading's text. */
  'aria-label'?: string;
  id?: string;
  /** Shows the values without letting them change (staff in a customer's account): every control is disabled. */
  readOnly?: boolean;
}

/** A fieldset that only groups: no border, no padding, and it may shrink below its content's width. */
const PLAIN_FIELDSET = { border: 0, padding: 0, margin: 0, minWidth: 0 } as const;

/** `<form>` with the rule form's submit handling; fields inside find the form through context. */
export function RuleForm<T extends FieldValues>({
  form,
  onSubmit,
  children,
  readOnly = false,
  ...rest
}: RuleFormProps<T>) {
  const { takeFocusAfterSave, setFocus } = form;
  // Read-only while saving: a refused save's first field error gets the focus once the fields take input again.
  useEffect(() => {
    if (readOnly) return;
    const name = takeFocusAfterSave();
    if (name) setFocus(name);
  }, [readOnly, takeFocusAfterSave, setFocus]);
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={form.submit(onSubmit)} {...rest}>
        {/* Always there, so turning read-only on and off (while saving) keeps the fields and their focus. */}
        <fieldset disabled={readOnly} style={PLAIN_FIELDSET}>
          {children}
        </fieldset>
      </form>
    </FormProvider>
  );
}

// Rules keep their messages as keys and values; the field translates its error when it renders, so an error on
// screen follows a change of language (and names the field by its label as it reads now).
const ruleT = laterT('validation');

/**
 * Binds one field to the form with its rules. Triggers: `commit` (blur, a chosen
 * option, a ticked box) validates; a plain `change` only re-validates a field that already shows an error.
 */
function useRuleField(name: string, rules: Rules | undefined, label: string) {
  const { control, trigger, getFieldState } = useFormContext();
  const { t } = useTranslation('validation');
  const { field, fieldState } = useController({
    name,
    control,
    rules: { validate: (value, values) => validate(value, rules, { field: label, name, values, t: ruleT }) },
  });

  // A field confirming another ("confirmed:password") is re-checked when that one changes, once it was visited.
  // Only on a change of the other field: an effect also runs again when nothing changed (Preact's Suspense runs a
  // shown tree's effects again after a lazy part loaded, decision 263; React's StrictMode on mount), and checking
  // the field then took away an error the server had set on it.
  const dependencies = dependenciesOf(rules, name);
  const watched = useWatch({ control, name: dependencies, disabled: dependencies.length === 0 });
  const watchedKey = JSON.stringify(watched);
  const checkedKey = useRef(watchedKey);
  useEffect(() => {
    if (checkedKey.current === watchedKey) return;
    checkedKey.current = watchedKey;
    const state = getFieldState(name);
    if (state.isTouched || state.error) void trigger(name);
  }, [watchedKey, name, getFieldState, trigger]);

  const hasError = Boolean(fieldState.error);
  return {
    field,
    error: fieldState.error?.message ? showText(fieldState.error.message, t, { field: label }) : undefined,
    change(value: unknown) {
      field.onChange(value);
      if (hasError) void trigger(name);
    },
    commit(value?: unknown) {
      if (value !== undefined) field.onChange(value);
      field.onBlur();
      void trigger(name);
    },
  };
}

type TextProps = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'label' | 'select'
> & {
  name: string;
  label: string;
  rules?: Rules;
};

export function FormTextField({
  name,
  label,
  rules,
  helperText,
  id,
  required,
  inputRef,
  ...rest
}: TextProps) {
  const ownId = useId();
  const { field, error, change, commit } = useRuleField(name, rules, label);
  return (
    <TextField
      {...rest}
      id={id ?? ownId}
      name={field.name}
      label={label}
      value={field.value ?? ''}
      inputRef={(element: HTMLInputElement | null) => {
        field.ref(element);
        if (typeof inputRef === 'function') inputRef(element);
      }}
      required={required ?? isRequired(rules)}
      error={Boolean(error)}
      helperText={error ?? helperText}
      onChange={(event) => change(event.target.value)}
      onBlur={() => commit()}
      onKeyDown={(event) => {
        // Enter commits a single-line field, as the native change event does.
        if (event.key === 'Enter' && !rest.multiline) commit();
        rest.onKeyDown?.(event);
      }}
    />
  );
}

export interface SelectOption {
  value: string;
  label: string;
  /** A line after this option, e.g. between frequent choices and the rest. */
  divider?: boolean;
}

type SelectProps = Omit<TextProps, 'type' | 'multiline'> & { options: readonly SelectOption[] };

export function FormSelect({ name, label, rules, options, helperText, id, required, ...rest }: SelectProps) {
  const ownId = useId();
  const { field, error, commit } = useRuleField(name, rules, label);
  return (
    <TextField
      {...rest}
      select
      id={id ?? ownId}
      name={field.name}
      label={label}
      value={field.value ?? ''}
      inputRef={field.ref}
      required={required ?? isRequired(rules)}
      error={Boolean(error)}
      helperText={error ?? helperText}
      onChange={(event) => commit(event.target.value)}
      onBlur={() => field.onBlur()}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value} divider={option.divider}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface CheckboxProps {
  name: string;
  /** Visible label; may hold links. */
  label: ReactNode;
  /** Plain-text name of the field for the default message "{field} is not valid." */
  fieldLabel: string;
  rules?: Rules;
  helperText?: ReactNode;
  disabled?: boolean;
}

export function FormCheckbox({ name, label, fieldLabel, rules, helperText, disabled }: CheckboxProps) {
  const helperId = useId();
  const { field, error, commit } = useRuleField(name, rules, fieldLabel);
  const describedBy = error || helperText ? helperId : undefined;
  return (
    <FormControl error={Boolean(error)} required={isRequired(rules)} disabled={disabled}>
      <FormControlLabel
        label={label}
        control={
          <Checkbox
            name={field.name}
            checked={Boolean(field.value)}
            onChange={(event) => commit(event.target.checked)}
            onBlur={() => field.onBlur()}
            slotProps={{
              input: {
                ref: field.ref,
                'aria-invalid': Boolean(error),
                'aria-describedby': describedBy,
                'aria-required': isRequired(rules),
              },
            }}
          />
        }
      />
      {describedBy && <FormHelperText id={helperId}>{error ?? helperText}</FormHelperText>}
    </FormControl>
  );
}
