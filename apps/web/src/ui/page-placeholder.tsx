import { useTranslation } from 'react-i18next';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import { EmptyState } from './empty-state.tsx';
import { Page } from './page.tsx';

/** Areas that later issues fill; each has a route title (`routes.<area>`) and a sentence (`placeholder.<area>`). */
export type PlaceholderArea =
  | 'billing'
  | 'subscriptions'
  | 'inbox'
  | 'inboxItem'
  | 'logs'
  | 'support'
  | 'supportInfo'
  | 'supportTicket'
  | 'supportTicketSuccess'
  | 'companyProfile'
  | 'userManagement'
  | 'memberForm'
  | 'digitalCoachForm'
  | 'ownership'
  | 'transferOwnership'
  | 'deepcloudConnect'
  | 'deepcloudConnection'
  | 'abaclik'
  | 'ncrLesson'
  | 'peppershopConfig';

/** An honest empty state: the page's title, what the area will hold, and that nothing is here yet. */
export function PagePlaceholder({ area }: { area: PlaceholderArea }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`routes.${area}`)}>
      <EmptyState
        icon={InboxOutlined}
        title={t('placeholder.empty')}
        text={t(`placeholder.${area}`)}
        action={{ to: '/', label: t('placeholder.toDashboard') }}
      />
    </Page>
  );
}
