import Typography from '@mui/material/Typography';

export default function UsersScreen() {
  return (
    <Typography variant="h5" component="h1">
      Users
    </Typography>
  );
}
