import { useCallback, useRef, type BaseSyntheticEvent } from 'react';
import {
  useForm,
  type FieldErrors,
  type FieldValues,
  type Path,
  type SubmitHandler,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { ParseKeys } from 'i18next';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { countErrors, serverFieldErrors } from './server-errors.ts';

export type RuleFormOptions<T extends FieldValues> = Omit<
  UseFormProps<T>,
  'mode' | 'reValidateMode' | 'resolver'
>;

export interface RuleForm<T extends FieldValues> extends UseFormReturn<T> {
  /**
   * Submit handler for `<form onSubmit>`: validates every field; when some are invalid, shows the error toast
   * fieldIsNotCorrect with their number. When `onValid` throws an error carrying server field errors (422),
   * they land on the matching fields; any other error is shown as an error toast.
   */
  submit(onValid: SubmitHandler<T>): (event?: BaseSyntheticEvent) => Promise<void>;
  /** Puts an API error's field errors on the fields; returns how many matched a field of this form. */
  applyServerErrors(error: unknown): number;
  /**
   * The field a refused submit put its first error on, once (then null), for `RuleForm` to focus when the form takes
   * input again: a form read-only while it saves has its fields disabled when the answer comes, and a disabled field
   * takes no focus.
   */
  takeFocusAfterSave(): Path<T> | null;
}

/**
 * react-hook-form set up for the portal's form rules: fields validate on blur, on change (commit) and on
 * submit, never on each keystroke — the field components trigger that themselves, so the form's own modes are
 * "on submit" only. Values set by code (`setValue`) are validated.
 */
export function useRuleForm<T extends FieldValues>(options: RuleFormOptions<T> = {}): RuleForm<T> {
  const form = useForm<T>({
    ...options,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: true,
  });
  const toast = useToast();
  const { setValue: baseSetValue, setError, handleSubmit, getValues } = form;
  const focusAfterSave = useRef<Path<T> | null>(null);

  const setValue = useCallback<UseFormReturn<T>['setValue']>(
    (name, value, opts) => baseSetValue(name, value, { shouldValidate: true, shouldDirty: true, ...opts }),
    [baseSetValue],
  );

  const applyServerErrors = useCallback(
    (error: unknown): number => {
      const values = getValues();
      const known = Object.entries(serverFieldErrors(error)).filter(([name]) => hasPath(values, name));
      known.forEach(([name, message], index) => {
        // The server may send a rule key ("required", "maxLength"), translated when shown, or a finished
        // sentence, shown as it is.
        const text = later(message as ParseKeys<'validation'>, { defaultValue: message }, 'validation');
        setError(name as Path<T>, { type: 'server', message: text }, { shouldFocus: index === 0 });
        if (index === 0) focusAfterSave.current = name as Path<T>;
      });
      return known.length;
    },
    [getValues, setError],
  );

  const submit = useCallback(
    (onValid: SubmitHandler<T>) =>
      handleSubmit(
        async (data, event) => {
          focusAfterSave.current = null;
          try {
            await onValid(data, event);
          } catch (error) {
            const count = applyServerErrors(error);
            if (count > 0) toast.error(later('fieldIsNotCorrect', { count }, 'validation'));
            else toast.error(error instanceof Error ? error.message : String(error));
          }
        },
        (errors: FieldErrors<T>) => {
          toast.error(later('fieldIsNotCorrect', { count: countErrors(errors) }, 'validation'));
        },
      ),
    [handleSubmit, applyServerErrors, toast],
  );

  const takeFocusAfterSave = useCallback(() => {
    const name = focusAfterSave.current;
    focusAfterSave.current = null;
    return name;
  }, []);

  // A fresh object each render: react-hook-form updates `formState` on its own (stable) object.
  return { ...form, setValue, submit, applyServerErrors, takeFocusAfterSave };
}

function hasPath(values: unknown, path: string): boolean {
  let current: unknown = values;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}
