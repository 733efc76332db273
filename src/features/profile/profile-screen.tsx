import Typography from '@mui/material/Typography';

export default function ProfileScreen() {
  return (
    <Typography variant="h5" component="h1">
      Profile
    </Typography>
  );
}
