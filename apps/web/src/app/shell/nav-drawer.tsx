import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Drawer from '@mui/material/Drawer';

/** The side navigation as a drawer on small screens. */
export default function NavDrawer({
  open,
  onClose,
  width,
  children,
}: {
  open: boolean;
  onClose: () => void;
  width: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    // The drawer is a dialog (Escape closes it and gives the focus back to its button): named like the navigation.
    <Drawer
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width, pt: 1 }, 'aria-label': t('nav.label') } }}
    >
      {children}
    </Drawer>
  );
}
