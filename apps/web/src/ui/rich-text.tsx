import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { focusRingColor, primaryText } from './theme.tsx';

// A text people wrote in Markdown (a lesson, an announcement), as the server rendered and sanitised it
// (`http/markdown.ts` on the server: no scripts, handlers or frames, and images only a lesson's own, named by
// `data-lesson-image` without an address). The one place that inserts such HTML.

/** Typography for a text the server rendered from Markdown and sanitised, that reads well in both themes. */
const contentSx: SxProps<Theme> = {
  maxWidth: '72ch',
  fontSize: '1.0625rem',
  lineHeight: 1.7,
  overflowWrap: 'anywhere',
  '& > :first-child': { mt: 0 },
  '& h3': { typography: 'h6', fontWeight: 600, mt: 3.5, mb: 1 },
  '& h4, & h5, & h6': { typography: 'subtitle1', fontWeight: 600, mt: 2.5, mb: 0.5 },
  '& p': { my: 1.5 },
  '& ul, & ol': { pl: 3.5, my: 1.5 },
  '& li': { my: 0.75, pl: 0.5 },
  '& li::marker': { color: 'text.secondary' },
  // Text in the brand colour uses its lighter tint on dark surfaces (contrast 4.5:1), as the theme's links do.
  '& a': {
    color: primaryText,
    textDecoration: 'underline',
    textUnderlineOffset: '0.15em',
  },
  '& a:focus-visible': {
    outline: '2px solid',
    outlineColor: (theme) => focusRingColor(theme.palette.mode),
    outlineOffset: '2px',
  },
  '& code, & kbd, & pre': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '& :not(pre) > code': {
    fontSize: '0.9em',
    bgcolor: 'action.selected',
    px: 0.75,
    py: 0.25,
    borderRadius: 1,
  },
  '& pre': { bgcolor: 'action.hover', p: 2, borderRadius: 1, overflowX: 'auto', fontSize: '0.9em' },
  '& kbd': {
    fontSize: '0.85em',
    px: 0.75,
    py: 0.25,
    border: 1,
    borderBottomWidth: 3,
    borderColor: 'divider',
    borderRadius: 1,
    bgcolor: 'background.default',
    whiteSpace: 'nowrap',
  },
  '& blockquote': {
    mx: 0,
    my: 2.5,
    px: 2,
    py: 0.5,
    borderLeft: 4,
    borderColor: 'primary.main',
    bgcolor: 'action.hover',
    borderRadius: 1,
  },
  '& table': { borderCollapse: 'collapse', my: 2 },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1.5, py: 0.75, textAlign: 'left' },
  '& hr': { border: 0, borderTop: 1, borderColor: 'divider', my: 3 },
  // A lesson's image: as wide as the text at most, on a light ground in both themes (drawn for white paper).
  '& img': {
    display: 'block',
    maxWidth: '100%',
    height: 'auto',
    my: 2,
    borderRadius: 1,
    bgcolor: '#fff',
  },
  '& img:not([src])': { display: 'none' },
};

/** Loads a lesson image named in the HTML (its uuid) as an image source; the page's area knows from where. */
export type ImageLoader = (imageUuid: string) => Promise<string>;

export function RichText({
  html,
  lang,
  sx,
  loadImage,
}: {
  html: string;
  lang?: string;
  sx?: SxProps<Theme>;
  /** Without it, images stay hidden. Keep it stable (useCallback), or the images load again on each render. */
  loadImage?: ImageLoader;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (!root || !loadImage) return;
    let current = true;
    for (const image of root.querySelectorAll<HTMLImageElement>('img[data-lesson-image]')) {
      loadImage(image.dataset.lessonImage!).then(
        (src) => {
          if (current) image.src = src;
        },
        () => undefined, // An image that cannot be loaded stays hidden; the text reads on.
      );
    }
    return () => {
      current = false;
    };
  }, [html, loadImage]);
  return (
    <Box
      ref={box}
      lang={lang}
      sx={[contentSx, ...(Array.isArray(sx) ? sx : [sx])] as SxProps<Theme>}
      // The server rendered the Markdown and sanitised the HTML (no scripts, handlers, frames or foreign images).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
