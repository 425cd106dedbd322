import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';

/** The placeholder of a billing card while its data loads. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('billing.loading')}>
      <Skeleton width="60%" />
      <Skeleton width="40%" />
    </Box>
  );
}
