import { Link } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import Logout from '@mui/icons-material/Logout';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import { LANGUAGES } from '@portal/contract';
import { useMe } from '@/api/session.ts';
import { logout } from '@/auth/auth.ts';
import { LANGUAGE_NAMES, useLanguage } from '@/features/profile/api.ts';
import { useThemeMode, type ThemeMode } from '@/ui/theme.tsx';
import { href } from '../href.ts';

const MODES: ThemeMode[] = ['light', 'dark', 'auto'];

export default function UserMenuPopup({ anchor, onClose }: { anchor: HTMLElement; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useMe();
  const { language, setLanguage } = useLanguage();
  const { mode, setMode } = useThemeMode();
  const check = (on: boolean) => <ListItemIcon>{on && <Check fontSize="small" />}</ListItemIcon>;
  return (
    <Menu
      anchorEl={anchor}
      open
      onClose={onClose}
      // Opened by keyboard, the focus goes to the first item (WAI-ARIA menu button), not to the chosen language.
      variant="menu"
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { minWidth: 260 } } }}
    >
      <Box component="li" role="presentation" sx={{ px: 2, py: 1 }}>
        <Typography sx={{ fontWeight: 600 }}>{me.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {me.email}
        </Typography>
      </Box>
      <Divider />
      <MenuItem component={Link} to={href('settings-users')} onClick={onClose}>
        <ListItemIcon>
          <ManageAccountsOutlined fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={t('userMenu.profile')} />
      </MenuItem>
      <Divider />
      <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>
        {t('userMenu.language')}
      </ListSubheader>
      {LANGUAGES.map((lng) => (
        <MenuItem
          key={lng}
          lang={lng}
          role="menuitemradio"
          aria-checked={lng === language}
          selected={lng === language}
          onClick={() => {
            onClose();
            setLanguage(lng);
          }}
        >
          {check(lng === language)}
          <ListItemText primary={LANGUAGE_NAMES[lng]} />
        </MenuItem>
      ))}
      <Divider />
      <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>
        {t('userMenu.theme')}
      </ListSubheader>
      {MODES.map((option) => (
        <MenuItem
          key={option}
          role="menuitemradio"
          aria-checked={option === mode}
          selected={option === mode}
          onClick={() => setMode(option)}
        >
          {check(option === mode)}
          <ListItemText primary={t(`userMenu.themes.${option}`)} />
        </MenuItem>
      ))}
      <Divider />
      <MenuItem
        onClick={() => {
          onClose();
          void logout();
        }}
      >
        <ListItemIcon>
          <Logout fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={t('userMenu.signOut')} />
      </MenuItem>
    </Menu>
  );
}
