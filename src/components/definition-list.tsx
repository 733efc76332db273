import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export interface DefinitionItem {
  label: string;
  value: ReactNode;
}

/** Label and value pairs as a `dl` in two aligned columns (a call's summary, an event's facts). */
export function DefinitionList({ items, labelWidth = 'max-content', dense = false }: { items: DefinitionItem[]; labelWidth?: string; dense?: boolean }) {
  return (
    <Box component="dl" sx={{ m: 0, mt: dense ? 0.5 : 0, display: 'grid', gridTemplateColumns: `${labelWidth} 1fr`, columnGap: dense ? 1.5 : 2, rowGap: dense ? 0.25 : 0.5 }}>
      {items.map(({ label, value }) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
