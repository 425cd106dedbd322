import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Tooltip from '@mui/material/Tooltip';
import type SvgIcon from '@mui/material/SvgIcon';
import {
  MEMBERS_PAGE_SIZE_MAX,
  MEMBER_STATUSES,
  type AccountRole,
  type Member,
  type MemberStatus,
  type MembersQuery,
} from '@portal/contract';
import { AddressPagination, readPaging, useAddressParams } from '@/ui/address-pagination.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';
import { visuallyHidden } from '@/ui/visually-hidden.ts';
import { membersQuery } from './api.ts';
import { RowActions } from './row-actions.tsx';

// Colours whose text keeps its contrast on both themes' paper.
const STATUS_COLOR: Record<MemberStatus, 'success' | 'secondary' | 'default'> = {
  ACCEPTED: 'success',
  PENDING: 'secondary',
  EXPIRED: 'default',
};
const PAGE_SIZES = [10, 25, 50, MEMBERS_PAGE_SIZE_MAX];
const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.includes(value as T) ? (value as T) : undefined;

/** Waits until typing pauses before the search goes to the server. */
function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function NameCell({ member }: { member: Member }) {
  const { t } = useTranslation();
  if (member.kind === 'INVITATION') {
    return (
      <Typography sx={{ color: 'text.secondary', fontStyle: 'italic' }}>{t('members.notJoined')}</Typography>
    );
  }
  return (
    <>
      {member.name || '—'}
      {member.isSelf && (
        <Typography component="span" sx={{ color: 'text.secondary' }}>
          {' '}
          {t('members.you')}
        </Typography>
      )}
    </>
  );
}

function StatusCell({ member }: { member: Member }) {
  const { t } = useTranslation();
  const chip = (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOR[member.status]}
      label={t(`members.status.${member.status}`)}
    />
  );
  if (member.kind === 'MEMBER' || !member.expiresAt) return chip;
  const until = t(member.status === 'EXPIRED' ? 'members.expiredOn' : 'members.validUntil', {
    date: formatDate(member.expiresAt),
  });
  return (
    <Stack sx={{ alignItems: 'flex-start', gap: 0.5 }}>
      {chip}
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {until}
      </Typography>
    </Stack>
  );
}

/** An address that wraps after its `@` when the column is narrow, rather than anywhere in it. */
function breakableEmail(email: string) {
  const at = email.indexOf('@');
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/**
 * A section of the members page: its heading, search and filters, the table of one server page and the footer
 * to page through, all kept in the address like every list; an empty section shows the empty state. `section`
 * coaches lists digital coaches, `members` everyone else.
 */
export function MembersTable({
  account,
  section,
  scope,
  title,
  titleId,
  roles,
  empty,
}: {
  account: string;
  section: NonNullable<MembersQuery['section']>;
  /** Where the section keeps its search, filters and page in the address (`useAddressParams`). */
  scope?: string;
  title: string;
  titleId: string;
  /** Roles to filter by; none hides the filter. */
  roles: readonly AccountRole[];
  /** What an empty section shows (the page's actions above invite). */
  empty: { icon: typeof SvgIcon; title: string };
}) {
  const { t } = useTranslation();
  const { get, set } = useAddressParams(scope);
  const [search, setSearch] = useState(get('search') ?? '');
  const term = useDebounced(search.trim());
  // The search reaches the address (and the server) once typing pauses; a new one starts at the first page.
  useEffect(() => {
    if (term !== (get('search') ?? '')) set('search', term);
  });
  const role = oneOf(roles, get('role'));
  const status = oneOf(MEMBER_STATUSES, get('status'));
  const { page, pageSize } = readPaging(get, PAGE_SIZES, 25);
  const query: MembersQuery = {
    section,
    page,
    pageSize,
    ...(term ? { search: term } : {}),
    ...(role ? { role } : {}),
    ...(status ? { status } : {}),
  };
  const { data, isFetching, isError } = useQuery(membersQuery(account, query));
  const total = data?.meta.total ?? 0;
  const rows = data?.data ?? [];
  const filtered = Boolean(term || role || status);

  return (
    <Stack component="section" aria-labelledby={titleId} spacing={2}>
      <Typography id={titleId} component="h2" variant="h6">
        {title}
      </Typography>
      {data && total === 0 && !filtered && page === 1 ? (
        <EmptyState icon={empty.icon} title={empty.title} />
      ) : (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
            <TextField
              type="search"
              size="small"
              label={t('members.search')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              sx={{ minWidth: 260 }}
            />
            {roles.length > 0 && (
              <FilterSelect
                label={t('members.columns.role')}
                value={role ?? ''}
                onChange={(value) => set('role', value)}
                options={[
                  { value: '', label: t('members.allRoles') },
                  ...roles.map((value) => ({ value, label: t(`accounts.roles.${value}`) })),
                ]}
              />
            )}
            <FilterSelect
              label={t('members.columns.status')}
              value={status ?? ''}
              onChange={(value) => set('status', value)}
              options={[
                { value: '', label: t('members.allStatuses') },
                ...MEMBER_STATUSES.map((value) => ({ value, label: t(`members.status.${value}`) })),
              ]}
            />
          </Stack>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {isFetching && <LinearProgress aria-label={t('members.loading')} sx={{ height: 2 }} />}
            {/* Eight columns: narrower gaps, so the table fits its box beside the navigation at 1280 px. */}
            <Table size="small" aria-labelledby={titleId} sx={{ '& th, & td': { px: 1.5 } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('members.columns.name')}</TableCell>
                  <TableCell>{t('members.columns.email')}</TableCell>
                  <TableCell>{t('members.columns.role')}</TableCell>
                  <TableCell>{t('members.columns.status')}</TableCell>
                  <TableCell>{t('members.columns.invitedBy')}</TableCell>
                  <TableCell>{t('members.columns.lastSignIn')}</TableCell>
                  <TableCell>{t('members.twoFactor.column')}</TableCell>
                  <RowActionsCell>
                    <Box component="span" sx={visuallyHidden}>
                      {t('members.columns.actions')}
                    </Box>
                  </RowActionsCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((member) => (
                  <MemberRow key={member.id} member={member} account={account} />
                ))}
                {!rows.length && !isFetching && (
                  <TableRow>
                    <TableCell colSpan={8} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                      {isError ? t('members.loadFailed') : t('members.noMatch')}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <AddressPagination total={total} page={page} pageSize={pageSize} sizes={PAGE_SIZES} scope={scope} />
        </>
      )}
    </Stack>
  );
}

function MemberRow({ member, account }: { member: Member; account: string }) {
  const { t } = useTranslation();
  return (
    <TableRow hover>
      <TableCell>
        <NameCell member={member} />
      </TableCell>
      <TableCell sx={{ overflowWrap: 'break-word' }}>{breakableEmail(member.email)}</TableCell>
      <TableCell>{t(`accounts.roles.${member.role}`)}</TableCell>
      <TableCell>
        <StatusCell member={member} />
      </TableCell>
      <TableCell>{member.invitedBy ?? '—'}</TableCell>
      <TableCell>
        {member.lastSignInAt
          ? formatDateTime(member.lastSignInAt)
          : member.kind === 'MEMBER'
            ? t('members.never')
            : '—'}
      </TableCell>
      <TableCell>
        <TwoFactorCell value={member.hasTwoFactor} kind={member.kind} />
      </TableCell>
      <RowActionsCell>
        <RowActions member={member} account={account} label={member.name || member.email} />
      </RowActionsCell>
    </TableRow>
  );
}

/** Whether the member has a second factor; "–" for invitations and when the identity provider keeps it. */
function TwoFactorCell({ value, kind }: { value: boolean | null; kind: 'MEMBER' | 'INVITATION' }) {
  const { t } = useTranslation();
  if (kind !== 'MEMBER') return '—';
  if (value === null)
    return (
      <Tooltip title={t('members.twoFactor.unknownHelp')}>
        <span aria-label={t('members.twoFactor.unknown')}>–</span>
      </Tooltip>
    );
  return (
    <DotChip
      color={value ? 'success' : 'warning'}
      label={value ? t('members.twoFactor.on') : t('members.twoFactor.off')}
    />
  );
}
