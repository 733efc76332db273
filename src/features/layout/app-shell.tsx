import { Outlet } from 'react-router-dom';
import Box from '@mui/material/Box';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterMoment } from '@mui/x-date-pickers/AdapterMoment';

/** The private shell: sidebar, top bar, page, settings panel, footer. */
export default function AppShell() {
  return (
    <LocalizationProvider dateAdapter={AdapterMoment}>
      <Box component="main" sx={{ p: 2 }}>
        <Outlet />
      </Box>
    </LocalizationProvider>
  );
}
