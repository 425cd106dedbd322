import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '@/ui/filter-select.tsx';

export const PAGE_SIZES = [10, 25, 50, 100];

/** A table's status filter: "all" (empty) or one of `values`, each named by `label`. */
export function StatusFilter<V extends string>({
  values,
  value,
  label,
  onChange,
}: {
  values: readonly V[];
  value: V | '';
  label: (value: V) => string;
  onChange: (value: V | '') => void;
}) {
  const { t } = useTranslation();
  return (
    <FilterSelect<V | ''>
      label={t('billingStaff.columns.status')}
      value={value}
      onChange={onChange}
      options={[
        { value: '', label: t('billingStaff.all') },
        ...values.map((v) => ({ value: v, label: label(v) })),
      ]}
    />
  );
}

/** A list's status filter and page: a new filter starts at the first page. */
export function useListState<V extends string>(initial: V | '') {
  const [state, setState] = useState({ status: initial, page: 1, pageSize: 25 });
  return {
    ...state,
    setStatus: (status: V | '') => setState((s) => ({ ...s, status, page: 1 })),
    restart: () => setState((s) => ({ ...s, page: 1 })),
    setPage: (page: number, pageSize: number) => setState((s) => ({ ...s, page, pageSize })),
  };
}
