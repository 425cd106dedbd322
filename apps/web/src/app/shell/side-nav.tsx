import { Link, useLocation } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Badge from '@mui/material/Badge';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { AccountRole, UserRole } from '@portal/contract';
import { unreadCountQuery } from '@/api/notifications.ts';
import { useCurrentAccount } from '@/api/session.ts';
import { canAccess } from '../navigation-rules.ts';
import { ROUTES, pathPatternOf, type NavGroup, type RouteEntry } from '../route-table.ts';

const GROUPS: NavGroup[] = ['main', 'settings', 'integrations', 'provider'];

/** A route shown in the side navigation. */
export type NavEntry = RouteEntry & { nav: NonNullable<RouteEntry['nav']> };

/** The side navigation from the route table: each group's rows in menu position, without those the role may not open. */
export function visibleNavItems(
  accountRole: AccountRole | null,
  userRole: UserRole,
  hasAccount: boolean,
): Record<NavGroup, NavEntry[]> {
  const visible = ROUTES.filter(
    (entry): entry is NavEntry =>
      entry.nav !== undefined &&
      (!(entry.access.needsAccount || entry.nav.needsAccount) || hasAccount) &&
      canAccess(entry.access, accountRole, userRole),
  );
  return Object.fromEntries(
    GROUPS.map((group) => [
      group,
      visible.filter((e) => e.nav.group === group).sort((a, b) => a.nav.position - b.nav.position),
    ]),
  ) as Record<NavGroup, NavEntry[]>;
}

function isActive(entry: RouteEntry, pathname: string): boolean {
  const href = pathPatternOf(entry);
  // The dashboard is active only on "/"; other items also for their sub-pages.
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The inbox item's unread count, as the server counts it (refetched whenever a notification changes). */
function UnreadBadge({ label }: { label: string }) {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  const { data: count = 0 } = useQuery({
    ...unreadCountQuery(account?.uuid ?? ''),
    enabled: Boolean(account),
  });
  return (
    <Badge
      badgeContent={count}
      max={99}
      color="error"
      data-testid="inbox-badge"
      slotProps={{ badge: { 'aria-label': t('notifications.unreadBadge', { count }) } as object }}
      sx={{ '& .MuiBadge-badge': { right: -16, top: '50%' } }}
    >
      {label}
    </Badge>
  );
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
              const Icon = entry.nav.icon;
              const active = isActive(entry, pathname);
              return (
                <ListItem key={entry.name} disablePadding>
                  <ListItemButton
                    component={Link}
                    to={pathPatternOf(entry)}
                    selected={active}
                    aria-current={active ? 'page' : undefined}
                    onClick={onNavigate}
                    sx={{ borderRadius: 2, mx: 1, my: 0.25 }}
                  >
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <Icon fontSize="small" />
                    </ListItemIcon>
                    <ListItemText
                      primary={
                        entry.name === 'inbox' && hasAccount ? (
                          <UnreadBadge label={t(entry.titleKey)} />
                        ) : (
                          t(entry.titleKey)
                        )
                      }
                    />
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
