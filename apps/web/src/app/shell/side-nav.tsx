import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import type { AccountRole, UserRole } from '@portal/contract';
import { canAccess } from '../navigation-rules.ts';
import { ROUTES, hrefOf, type NavGroup, type RouteEntry } from '../route-table.ts';

const ICONS: Record<string, ComponentType<SvgIconProps>> = {
  dashboard: DashboardOutlined,
  inbox: InboxOutlined,
  billing: ReceiptLongOutlined,
  subscriptions: AutorenewOutlined,
  support: SupportAgentOutlined,
  logs: HistoryOutlined,
  'settings-company-profile': BusinessOutlined,
  'settings-user-management': GroupOutlined,
  'settings-users': ManageAccountsOutlined,
  'settings-ownership': VpnKeyOutlined,
  abaclik: ExtensionOutlined,
  'peppershop-config': StorefrontOutlined,
};

const GROUPS: NavGroup[] = ['main', 'settings', 'integrations'];
const MAIN_ORDER = ['dashboard', 'inbox', 'support', 'billing', 'subscriptions', 'logs'];

/** Navigation items from the route table, hidden per route name and role (SPEC §6). */
export function visibleNavItems(
  accountRole: AccountRole | null,
  userRole: UserRole,
  hasAccount: boolean,
): Record<NavGroup, RouteEntry[]> {
  const visible = ROUTES.filter(
    (entry) =>
      entry.nav &&
      (!entry.access.needsAccount || hasAccount) &&
      canAccess(entry.access, accountRole, userRole),
  );
  const grouped = Object.fromEntries(
    GROUPS.map((group) => [group, visible.filter((e) => e.nav === group)]),
  ) as Record<NavGroup, RouteEntry[]>;
  grouped.main.sort((a, b) => MAIN_ORDER.indexOf(a.name) - MAIN_ORDER.indexOf(b.name));
  return grouped;
}

function isActive(entry: RouteEntry, pathname: string): boolean {
  const href = hrefOf(entry);
  // The dashboard is active only on "/" (SPEC-DECISIONS 32); other items also for their sub-pages.
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function SideNav({
  accountRole,
  userRole,
  hasAccount,
  onNavigate,
}: {
  accountRole: AccountRole | null;
  userRole: UserRole;
  hasAccount: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const groups = visibleNavItems(accountRole, userRole, hasAccount);
  return (
    <nav aria-label={t('nav.label')}>
      {GROUPS.filter((group) => groups[group].length > 0).map((group) => (
        <div key={group}>
          {group !== 'main' && (
            <Typography
              id={`nav-${group}`}
              variant="body2"
              color="text.secondary"
              sx={{ px: 2, pt: 2, pb: 0.5, fontWeight: 500 }}
            >
              {t(`nav.${group}`)}
            </Typography>
          )}
          <List dense disablePadding aria-labelledby={group === 'main' ? undefined : `nav-${group}`}>
            {groups[group].map((entry) => {
              const Icon = ICONS[entry.name] ?? ExtensionOutlined;
              const active = isActive(entry, pathname);
              return (
                <ListItem key={entry.name} disablePadding>
                  <ListItemButton
                    component={Link}
                    to={hrefOf(entry)}
                    selected={active}
                    aria-current={active ? 'page' : undefined}
                    onClick={onNavigate}
                    sx={{ borderRadius: 2, mx: 1, my: 0.25 }}
                  >
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <Icon fontSize="small" />
                    </ListItemIcon>
                    <ListItemText primary={t(entry.titleKey)} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        </div>
      ))}
    </nav>
  );
}
