import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

/** A read that failed: what could not be loaded, and a retry (disabled while it runs). */
export function RetryAlert({
  message,
  query,
}: {
  message: string;
  query: { refetch: () => unknown; isFetching: boolean };
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {t('deepcloud.retry')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
