import type { ReactNode } from 'react';
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
  return (
    <Drawer open={open} onClose={onClose} slotProps={{ paper: { sx: { width, pt: 1 } } }}>
      {children}
    </Drawer>
  );
}
