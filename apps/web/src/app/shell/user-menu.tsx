import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useMe } from '@/api/session.ts';

const UserMenuPopup = lazy(() => import('./user-menu-popup.tsx'));

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first user-perceived character of `word`: a whole emoji or letter with its accents, never half of one. */
function firstGrapheme(word: string): string {
  return graphemes.segment(word)[Symbol.iterator]().next().value?.segment ?? '';
}

/** The first letters of the first and the last word of a name ("Anna Maria Muster" → "AM"), else "?". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const words = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts;
  return words.map(firstGrapheme).join('').toLocaleUpperCase() || '?';
}

/** The user menu: own profile, language, theme and sign out. */
export function UserMenu() {
  const { t } = useTranslation();
  const me = useMe();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={t('userMenu.open', { name: me.name })}
        sx={{ p: 0.5 }}
      >
        <Box
          component="span"
          aria-hidden
          sx={{
            width: 34,
            height: 34,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'common.white',
            color: 'primary.main',
            fontSize: 15,
            fontWeight: 700,
          }}
        >
          {initials(me.name || me.email)}
        </Box>
      </IconButton>
      {anchor && (
        <Suspense fallback={null}>
          <UserMenuPopup anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
