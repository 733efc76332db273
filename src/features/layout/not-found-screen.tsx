import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

/** SPEC §2: not-found page with a go-home link. */
export default function NotFoundScreen() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <Box>
        <Typography variant="h2" component="h1" color="primary">
          404
        </Typography>
        <Typography variant="h6" gutterBottom>
          Page not found
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          The page you are looking for does not exist or has moved.
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          Go home
        </Button>
      </Box>
    </Box>
  );
}
