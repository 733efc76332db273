import Typography from '@mui/material/Typography';

/** Placeholder until the Categories issue builds this screen. */
export default function CategoriesScreen() {
  return (
    <Typography variant="h5" component="h1">
      Categories
    </Typography>
  );
}
