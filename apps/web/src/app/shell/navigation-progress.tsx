import LinearProgress from '@mui/material/LinearProgress';

export default function NavigationProgress({ label }: { label: string }) {
  return (
    <LinearProgress
      aria-label={label}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (z) => z.zIndex.appBar + 1, height: 3 }}
    />
  );
}
