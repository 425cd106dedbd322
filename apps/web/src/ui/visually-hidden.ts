/**
 * `sx` for text only screen readers read (e.g. "opens in a new tab" beside a link's visible name). Lengths are CSS
 * strings: in `sx` a number up to 1 is a fraction (`width: 1` is 100 %) and margins count in theme spacing, so
 * `width: 1` made a 1280 px wide invisible label that scrolled the inbox sideways.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
