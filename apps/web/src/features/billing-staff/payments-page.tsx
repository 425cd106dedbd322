import { useState } from 'react';
import { useSearchParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Page } from '@/ui/page.tsx';
import { CreditsPanel } from './credits-panel.tsx';
import { importsQuery } from './api.ts';
import { InvoicesPanel } from './invoices-panel.tsx';
import { DataTable } from './data-table.tsx';
import { formatDateTime } from '@/i18n/format.ts';
import { UploadCard } from './upload-card.tsx';

const TABS = ['credits', 'imports', 'invoices'] as const;
type TabName = (typeof TABS)[number];

/** The bank files imported so far, newest first, with how their credits were booked. */
function ImportsPanel() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, pageSize: 25 });
  const result = useQuery(importsQuery(paging));
  return (
    <DataTable
      tab="imports"
      columns={[
        'billingStaff.columns.importedAt',
        'billingStaff.columns.fileName',
        'billingStaff.columns.importedBy',
        'billingStaff.counts.matched',
        'billingStaff.counts.partial',
        'billingStaff.counts.unmatched',
        'billingStaff.counts.duplicates',
      ]}
      paging={{ ...paging, onChange: (page, pageSize) => setPaging({ page, pageSize }) }}
      result={result}
      rows={(result.data?.data ?? []).map((file) => ({
        key: file.uuid,
        cells: [
          formatDateTime(file.importedAt),
          file.fileName,
          file.importedBy ?? '—',
          file.counts.matched,
          file.counts.partial,
          file.counts.unmatched,
          file.counts.duplicates,
        ],
      }))}
      empty={t('billingStaff.empty.imports')}
    />
  );
}

/**
 * Payments, staff side: import the bank's camt.054 files, handle the credits that could not be booked in full,
 * look back at the imports, and find invoices across accounts to mark them paid or void them.
 */
export default function PaymentsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: TabName = TABS.includes(params.get('tab') as TabName)
    ? (params.get('tab') as TabName)
    : 'credits';
  const select = (next: TabName) => {
    const search = new URLSearchParams(params);
    if (next === 'credits') search.delete('tab');
    else search.set('tab', next);
    setParams(search, { replace: true });
  };
  return (
    <Page title={t('routes.billingPayments')}>
      <Typography sx={{ color: 'text.secondary', mb: 2, maxWidth: 800 }}>
        {t('billingStaff.intro')}
      </Typography>
      <UploadCard />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mt: 3, mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: TabName) => select(next)}
          aria-label={t('billingStaff.tabsLabel')}
        >
          {TABS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`billingStaff.tabs.${name}`)}
              id={`billing-staff-tab-${name}`}
              aria-controls={`billing-staff-panel-${name}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`billing-staff-panel-${tab}`} aria-labelledby={`billing-staff-tab-${tab}`}>
        {tab === 'credits' && <CreditsPanel />}
        {tab === 'imports' && <ImportsPanel />}
        {tab === 'invoices' && <InvoicesPanel />}
      </Box>
    </Page>
  );
}
