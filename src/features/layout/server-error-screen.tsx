import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

/** SPEC §2: server error page. */
export default function ServerErrorScreen() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <Box>
        <Typography variant="h2" component="h1" color="error">
          500
        </Typography>
        <Typography variant="h6" gutterBottom>
          Something went wrong on our side
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Please try again in a moment.
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          Go home
        </Button>
      </Box>
    </Box>
  );
}
