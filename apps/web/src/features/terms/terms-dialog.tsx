import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { TERMS_VERSION } from '@portal/contract';

export type TermsKind = 'agb' | 'privacy';

interface Section {
  heading: string;
  text: string;
}

/** The terms or the privacy policy in the interface language, in the version an owner accepts (TERMS_VERSION). */
export function TermsDialog({ kind, onClose }: { kind: TermsKind | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const shown = kind ?? 'agb';
  const sections = t(`terms.${shown}.sections`, { returnObjects: true }) as Section[];
  return (
    <Dialog open={kind !== null} onClose={onClose} aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId}>
        {t(`terms.${shown}.title`)}
        <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary' }}>
          {t('terms.version', { version: TERMS_VERSION })}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        {Array.isArray(sections) &&
          sections.map((section, index) => (
            <section key={section.heading}>
              <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: index ? 2 : 0 }}>
                {index + 1}. {section.heading}
              </Typography>
              <Typography variant="body2">{section.text}</Typography>
            </section>
          ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t('terms.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
