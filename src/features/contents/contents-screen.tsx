import Typography from '@mui/material/Typography';

/** Placeholder until the Contents issue builds this screen. */
export default function ContentsScreen() {
  return (
    <Typography variant="h5" component="h1">
      Contents
    </Typography>
  );
}
