import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVert from '@mui/icons-material/MoreVert';

export interface RowMenuItem {
  key: string;
  label: string;
  /** Shown in the error colour: an action that deletes or removes. */
  destructive?: boolean;
  run: () => void | Promise<void>;
}

/**
 * A row's actions behind one ⋮ button that fits beside the row at 320 px (members, lessons, courses): the menu
 * closes before the action runs, so a confirmation opens on its own.
 */
export function RowMenu({ label, items, busy }: { label: string; items: RowMenuItem[]; busy: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        disabled={busy}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem
            key={item.key}
            onClick={() => {
              setAnchor(null);
              void item.run();
            }}
            sx={item.destructive ? { color: 'error.main' } : undefined}
          >
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
