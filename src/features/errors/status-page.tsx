import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

interface StatusPageProps {
  code: string;
  color: 'primary' | 'error';
  title: string;
  message: string;
}

/** The full-page layout of the 404 and 500 pages: big status code, title, message and a go-home link. */
export function StatusPage({ code, color, title, message }: StatusPageProps) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 2 }}>
      <Box>
        <Typography variant="h2" component="h1" color={color}>
          {code}
        </Typography>
        <Typography variant="h6" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {message}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          Go home
        </Button>
      </Box>
    </Box>
  );
}
