import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';

export interface Figure {
  label: string;
  value: string;
  /** A theme colour for the value (processed green, failed red). */
  color?: string;
}

/**
 * Small figure cards that wrap to as many per line as fit: three on a 412 px phone, a line on a
 * desktop. Each is a labelled region, so a reader finds a figure by its name. Cards take no room
 * of their own beyond the grid's cell (minWidth 0, border-box), so a long value never pushes the
 * page sideways.
 */
export function FigureCards({ figures, label }: { figures: readonly Figure[]; label: string }) {
  return (
    <Box
      role="group"
      aria-label={label}
      sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(3, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(130px, 1fr))' }, gap: 1, mb: 2 }}
    >
      {figures.map(({ label: name, value, color }) => (
        <Card key={name} component="section" aria-label={name} variant="outlined" sx={{ minWidth: 0, boxSizing: 'border-box', px: 1.5, py: 1 }}>
          <Typography variant="caption" color="text.secondary" component="h2" noWrap sx={{ display: 'block' }}>
            {name}
          </Typography>
          <Typography variant="subtitle1" component="p" sx={{ color, fontWeight: 600, overflowWrap: 'anywhere', lineHeight: 1.3 }}>
            {value}
          </Typography>
        </Card>
      ))}
    </Box>
  );
}
