import type { ReactNode } from 'react';
import Typography from '@mui/material/Typography';

/** One labelled value of a description list (`<Box component="dl">`): the label above, the value below. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </div>
  );
}
