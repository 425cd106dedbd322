import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Tooltip from '@mui/material/Tooltip';
import MoreVert from '@mui/icons-material/MoreVert';
import {
  MEMBERS_PAGE_SIZE_MAX,
  MEMBER_STATUSES,
  membersRoutes,
  type AccountRole,
  type Member,
  type MemberStatus,
  type MembersQuery,
} from '@portal/contract';
import { useMayCall } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { membersQuery, useRemoveMember, useResendInvitation, useRevokeInvitation } from './api.ts';

// Colours whose text keeps its contrast on both themes' paper.
const STATUS_COLOR: Record<MemberStatus, 'success' | 'secondary' | 'default'> = {
  ACCEPTED: 'success',
  PENDING: 'secondary',
  EXPIRED: 'default',
};
const PAGE_SIZES = [10, 25, 50, 100];
/** Read by screen readers, not shown (the actions column's heading). */
const visuallyHidden = {
  position: 'absolute',
  // Strings: in `sx` the number 1 would mean 100%.
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
/** The "Alle" option of the footer: offered only while every row fits in one page the server allows. */
const ALL = -1;

/** Waits until typing pauses before the search goes to the server. */
function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function RowActions({ member, account, label }: { member: Member; account: string; label: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const remove = useRemoveMember(account);
  const resend = useResendInvitation(account);
  const revoke = useRevokeInvitation(account);
  const may = {
    resend: useMayCall(membersRoutes.resendInvitation),
    revoke: useMayCall(membersRoutes.revokeInvitation),
    role: useMayCall(membersRoutes.updateMember),
    remove: useMayCall(membersRoutes.removeMember),
  };
  const who = member.name || member.email;
  const items: { key: keyof typeof may; label: string; run: () => void | Promise<void> }[] = [];

  if (member.kind === 'INVITATION') {
    items.push({ key: 'resend', label: t('members.actions.resend'), run: () => resend.mutate(member) });
    items.push({
      key: 'revoke',
      label: t('members.actions.revoke'),
      run: async () => {
        const ok = await confirm({
          title: t('members.revokeTitle'),
          message: t('members.revokeMessage', { email: member.email }),
          confirmLabel: t('members.actions.revoke'),
          destructive: true,
        });
        if (ok) revoke.mutate(member);
      },
    });
  } else if (member.role !== 'OWNER' && !member.isSelf) {
    if (member.role !== 'DC') {
      items.push({
        key: 'role',
        label: t('members.actions.changeRole'),
        run: () => navigate(href('settings-user-management-form', { uuid: member.id })),
      });
    }
    items.push({
      key: 'remove',
      label: t('members.actions.remove'),
      run: async () => {
        const ok = await confirm({
          title: t('members.removeTitle'),
          message: t('members.removeMessage', { name: who }),
          confirmLabel: t('members.actions.remove'),
          destructive: true,
        });
        if (ok) remove.mutate(member);
      },
    });
  }
  // Only what the caller may do (staff in a customer's account change nothing here).
  const allowed = items.filter((item) => may[item.key]);
  if (!allowed.length) return null;
  const busy = remove.isPending || resend.isPending || revoke.isPending;
  return (
    <>
      <IconButton
        aria-label={t('members.actions.label', { name: label })}
        aria-haspopup="menu"
        disabled={busy}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {allowed.map((item) => (
          <MenuItem
            key={item.key}
            onClick={() => {
              setAnchor(null);
              void item.run();
            }}
          >
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
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

/**
 * A section of the members page: its heading, search and filters, the table of one server page and the footer
 * to page through. `section` coaches lists digital coaches, `members` everyone else.
 */
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

export function MembersTable({
  account,
  section,
  title,
  titleId,
  roles,
  empty,
}: {
  account: string;
  section: NonNullable<MembersQuery['section']>;
  title: string;
  titleId: string;
  /** Roles to filter by; none hides the filter. */
  roles: readonly AccountRole[];
  empty: ReactNode;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<AccountRole | ''>('');
  const [status, setStatus] = useState<MemberStatus | ''>('');
  const [rowsPerPage, setRowsPerPage] = useState(25);
  const term = useDebounced(search.trim());
  // A page number belongs to one search and filter: a new one starts at the first page.
  const filterKey = JSON.stringify([term, role, status]);
  const [paging, setPaging] = useState({ key: filterKey, page: 0 });
  const page = paging.key === filterKey ? paging.page : 0;
  const setPage = (next: number) => setPaging({ key: filterKey, page: next });
  const query: MembersQuery = {
    section,
    page: page + 1,
    pageSize: rowsPerPage === ALL ? MEMBERS_PAGE_SIZE_MAX : rowsPerPage,
    ...(term ? { search: term } : {}),
    ...(role ? { role } : {}),
    ...(status ? { status } : {}),
  };
  const { data, isFetching, isError } = useQuery(membersQuery(account, query));
  const total = data?.meta.total ?? 0;
  const rows = data?.data ?? [];
  const filtered = Boolean(term || role || status);
  const sizes = [
    ...PAGE_SIZES,
    ...(total <= MEMBERS_PAGE_SIZE_MAX ? [{ label: t('members.all'), value: ALL }] : []),
  ];

  return (
    <Stack component="section" aria-labelledby={titleId} spacing={2}>
      <Typography id={titleId} component="h2" variant="h6">
        {title}
      </Typography>
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
            value={role}
            onChange={setRole}
            options={[
              { value: '', label: t('members.allRoles') },
              ...roles.map((value) => ({ value, label: t(`accounts.roles.${value}`) })),
            ]}
          />
        )}
        <FilterSelect
          label={t('members.columns.status')}
          value={status}
          onChange={setStatus}
          options={[
            { value: '', label: t('members.allStatuses') },
            ...MEMBER_STATUSES.map((value) => ({ value, label: t(`members.status.${value}`) })),
          ]}
        />
      </Stack>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {isFetching && <LinearProgress aria-label={t('members.loading')} sx={{ height: 2 }} />}
        <Table size="small" aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell>{t('members.columns.name')}</TableCell>
              <TableCell>{t('members.columns.email')}</TableCell>
              <TableCell>{t('members.columns.role')}</TableCell>
              <TableCell>{t('members.columns.status')}</TableCell>
              <TableCell>{t('members.columns.invitedBy')}</TableCell>
              <TableCell>{t('members.columns.lastSignIn')}</TableCell>
              <TableCell>{t('members.twoFactor.column')}</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {t('members.columns.actions')}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((member) => (
              <TableRow key={member.id} hover>
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
                <TableCell align="right">
                  <RowActions member={member} account={account} label={member.name || member.email} />
                </TableCell>
              </TableRow>
            ))}
            {!rows.length && !isFetching && (
              <TableRow>
                <TableCell colSpan={8} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {isError ? t('members.loadFailed') : filtered ? t('members.noMatch') : empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={rowsPerPage === ALL ? 0 : Math.min(page, Math.max(0, Math.ceil(total / rowsPerPage) - 1))}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={sizes}
        onPageChange={(_event, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          const next = Number(event.target.value);
          setRowsPerPage(next);
          setPage(0);
        }}
      />
    </Stack>
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
