import type { ReactNode } from 'react';
import Typography from '@mui/material/Typography';

/** The line under a card's title (the form cards and the public pages' card). */
export function CardSubtitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      {children}
    </Typography>
  );
}
