import { useMemo, useState } from 'react';
import { useNavigate, Link } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Divider from '@mui/material/Divider';
import InputAdornment from '@mui/material/InputAdornment';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Box from '@mui/material/Box';
import Check from '@mui/icons-material/Check';
import Search from '@mui/icons-material/Search';
import Add from '@mui/icons-material/Add';
import ListAlt from '@mui/icons-material/ListAlt';
import type { Account } from '@portal/contract';
import { switchAccount } from '@/api/session.ts';
import { href } from '../href.ts';

/** From this many accounts on, the menu offers a search field. */
export const SEARCH_FROM = 6;

export default function AccountMenu({
  anchor,
  accounts,
  current,
  onClose,
}: {
  anchor: HTMLElement;
  accounts: Account[];
  current: Account | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase();
    return needle ? accounts.filter((a) => a.name.toLocaleLowerCase().includes(needle)) : accounts;
  }, [accounts, query]);

  return (
    <Menu
      anchorEl={anchor}
      open
      onClose={onClose}
      slotProps={{ paper: { sx: { minWidth: 300, maxWidth: 420, maxHeight: 480 } } }}
      autoFocus={accounts.length < SEARCH_FROM}
    >
      {accounts.length >= SEARCH_FROM && (
        <Box
          component="li"
          role="presentation"
          sx={{ px: 2, pb: 1 }}
          onKeyDown={(event) => {
            // The menu's own keys (type-ahead, arrows) stay out of the search field; ArrowDown leaves it for the
            // first account of the list, as in a combobox.
            event.stopPropagation();
            if (event.key !== 'ArrowDown') return;
            const first = event.currentTarget.parentElement?.querySelector<HTMLElement>(
              '[role="menuitem"]:not([aria-disabled="true"])',
            );
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }}
        >
          <TextField
            size="small"
            fullWidth
            autoFocus
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={t('accountSwitcher.search')}
            slotProps={{
              htmlInput: { 'aria-label': t('accountSwitcher.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>
      )}
      {shown.map((account) => {
        const selected = account.uuid === current?.uuid;
        return (
          <MenuItem
            key={account.uuid}
            selected={selected}
            onClick={() => {
              onClose();
              // A pending invitation is never the current account: its one page is the invitation (decision 213).
              if (account.invitationStatus !== 'ACCEPTED') void navigate(href('invite-verify'));
              else if (!selected) switchAccount(account.uuid);
            }}
          >
            <ListItemIcon>{selected && <Check fontSize="small" />}</ListItemIcon>
            <ListItemText
              primary={account.name}
              secondary={[
                t(`common.accountRoles.${account.accountRole}`),
                account.invitationStatus === 'PENDING' ? t('accountSwitcher.invitationPending') : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </MenuItem>
        );
      })}
      {shown.length === 0 && (
        <MenuItem disabled>
          <ListItemText primary={query.trim() ? t('accountSwitcher.noMatch') : t('accountSwitcher.none')} />
        </MenuItem>
      )}
      <Divider />
      <MenuItem component={Link} to={href('accounts')} onClick={onClose}>
        <ListItemIcon>
          <ListAlt fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={t('accountSwitcher.all')} />
      </MenuItem>
      <MenuItem component={Link} to={href('create-account')} onClick={onClose}>
        <ListItemIcon>
          <Add fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={t('accountSwitcher.create')} />
      </MenuItem>
    </Menu>
  );
}
