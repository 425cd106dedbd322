import TextField from '@mui/material/TextField';
import MenuItem from '@mui/material/MenuItem';
import type { SxProps, Theme } from '@mui/material/styles';

/** A filter or choice of a list: one of `options` (the first of them often "all"), chosen at once. */
export function FilterSelect<V extends string>({
  label,
  value,
  onChange,
  options,
  disabled,
  sx,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: { value: V; label: string }[];
  disabled?: boolean;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as V)}
      // The "all" choice has the empty value: it is shown like any other choice, under its label.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={sx ?? { minWidth: 180 }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
