// The floor of the sign-in route: React 19 plus MUI's Card, TextField and Button, nothing else.
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import TextField from '@mui/material/TextField';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <Card>
    <TextField label="Username" />
    <Button>Sign in</Button>
  </Card>,
);
