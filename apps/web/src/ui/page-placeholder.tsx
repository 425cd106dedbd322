import { useTranslation } from 'react-i18next';
import type { CustomTypeOptions } from 'i18next';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import { EmptyState } from './empty-state.tsx';
import { Page } from './page.tsx';
import { href } from '@/app/href.ts';
import type { RouteArea } from '@/app/route-table.ts';

type PlaceholderSentences = CustomTypeOptions['resources']['messages']['placeholder'];

/**
 * An area of the route table whose page is still empty: its route title (`routes.<area>`) heads the page and its
 * sentence (`placeholder.<area>`) says what the area will hold. Giving an area such a sentence makes it one;
 * a real page replaces the placeholder page and the sentence is removed.
 */
export type PlaceholderArea = Extract<RouteArea, keyof PlaceholderSentences>;

/** An honest empty state: the page's title, what the area will hold, and that nothing is here yet. */
export function PagePlaceholder({ area }: { area: PlaceholderArea }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`routes.${area}`)}>
      <EmptyState
        icon={InboxOutlined}
        title={t('placeholder.empty')}
        text={t(`placeholder.${area}`)}
        action={{ to: href('dashboard'), label: t('placeholder.toDashboard') }}
      />
    </Page>
  );
}
