import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

/**
 * In place of a screen the person's role cannot use: said plainly, with the way to
 * their own first screen. The screen is not rendered, so it asks the API nothing.
 */
export function NoAccess({ home }: { home: { path: string; label: string } }) {
  return (
    <Box sx={{ py: 6, display: 'grid', justifyItems: 'center', gap: 1.5, textAlign: 'center' }}>
      <Typography variant="h5" component="h1">
        You do not have access to this page
      </Typography>
      <Typography color="text.secondary">Your account cannot use this screen. Ask an administrator if you need it.</Typography>
      <Button component={RouterLink} to={home.path} variant="contained" sx={{ mt: 1 }}>
        Go to {home.label}
      </Button>
    </Box>
  );
}
