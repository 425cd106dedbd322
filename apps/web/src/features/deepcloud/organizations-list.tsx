import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ColumnHeads } from '@/ui/invoice-lines.tsx';
import { cloudOrganizationsQuery } from './api.ts';
import { RetryAlert } from './retry-alert.tsx';

const KNOWN_ROLES = ['owner', 'admin', 'member'] as const;
const isKnownRole = (role: string): role is (typeof KNOWN_ROLES)[number] =>
  (KNOWN_ROLES as readonly string[]).includes(role);

/**
 * The organisations the connection reaches, read from the cloud on each visit: loading, failure with a retry,
 * none, or the table. Leaving the page cancels the request.
 */
export function OrganizationsList({ account, connection }: { account: string; connection: string }) {
  const { t } = useTranslation();
  const query = useQuery(cloudOrganizationsQuery(account, connection));
  // The roles the cloud is known to name are translated; any other is shown as the cloud sends it.
  const roleLabel = (role: string | null) =>
    role === null ? '–' : isKnownRole(role) ? t(`deepcloud.organizationRoles.${role}`) : role;
  if (query.isError) {
    return <RetryAlert message={t('deepcloud.organizationsFailed')} query={query} />;
  }
  if (!query.data) {
    return (
      <Stack spacing={1} role="status" aria-busy="true" aria-label={t('deepcloud.organizationsLoading')}>
        <Skeleton variant="rounded" height={36} />
        <Skeleton variant="rounded" height={36} />
        <Skeleton variant="rounded" height={36} />
      </Stack>
    );
  }
  if (query.data.length === 0) {
    return <Typography sx={{ color: 'text.secondary' }}>{t('deepcloud.organizationsEmpty')}</Typography>;
  }
  return (
    <TableContainer>
      <Table size="small" aria-labelledby="deepcloud-organizations">
        <ColumnHeads
          columns={[
            { label: t('deepcloud.organizationName') },
            { label: t('deepcloud.organizationUid') },
            { label: t('deepcloud.organizationRole') },
          ]}
        />
        <TableBody>
          {query.data.map((organization) => (
            <TableRow key={organization.id}>
              <TableCell component="th" scope="row">
                {organization.name}
              </TableCell>
              <TableCell>{organization.uid ?? '–'}</TableCell>
              <TableCell>{roleLabel(organization.role)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
