import { Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import TuneIcon from '@mui/icons-material/Tune';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { LoadingOverlay } from '../../components/loading-overlay';
import { PageFallback } from '../../components/page-fallback';
import { homePathFor, useLogout } from '../../state/session-hooks';
import { selectSessionUser, sessionServiceCode } from '../../state/session-slice';
import { carriedViewQuery, selectChosenView } from '../../state/view-slice';
import type { LoginUser } from '../../domain/entities';
import { useGetCampaignsQuery } from '../../api/campaigns-api';
import { selectSettingsVisible, settingsVisibilitySet } from '../../state/ui-slice';
import { canOpen, menuFor, type MenuEntry } from './menu';
import { NoAccess } from './no-access';
import { IncidentCount } from './incident-count';
import { TopBarSearch } from './top-bar-search';
import { LiveStatus } from './live-status';
import { SettingsPanel } from '../../components/settings-panel';
import { PHONE_QUERY } from '../../domain/first-visit';
import { ALL_SERVICE_CODES } from '../../domain/service-codes';
import { isManager } from '../../domain/roles';
import { preloadPagedDataGrid } from '../../components/paged-grid';

// Every list of a wide screen is a DataGrid, loaded apart from the screens (phones show cards):
// fetch it now, while the shell renders, so a list never waits for it after its own code.
if (typeof window !== 'undefined' && !window.matchMedia?.(PHONE_QUERY)?.matches) void preloadPagedDataGrid().catch(() => undefined);

const DRAWER_WIDTH = 220;
const MAIN_ID = 'main-content';

/** The first stop of the Tab key: jumps past the bars, the menu and the settings to the page. */
function SkipLink() {
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'text.primary',
        boxShadow: 3,
        typography: 'body2',
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      Skip to content
    </Box>
  );
}
/** SPEC §9: the mobile sidebar opens and closes in 300 ms. */
const MOBILE_DRAWER_MS = 300;

function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const user = useAppSelector(selectSessionUser);
  const { pathname } = useLocation();
  const carried = carriedViewQuery(useAppSelector(selectChosenView));
  // Admins' Campaigns group lists the live campaigns (the list of campaigns is theirs to read).
  const listsCampaigns = Boolean(user && isManager(user.role) && !user.isAfcon && !user.twoFactorSetupRequired);
  const campaigns = useGetCampaignsQuery(undefined, { skip: !listsCampaigns });
  const link = (entry: MenuEntry) => (
    <ListItemButton key={entry.path} component={NavLink} to={entry.carriesView && carried ? `${entry.path}?${carried}` : entry.path} selected={pathname === entry.path} onClick={onNavigate}>
      <ListItemText primary={entry.label} />
    </ListItemButton>
  );
  const entries = menuFor(user, campaigns.data);
  const groups = [...new Set(entries.flatMap((entry) => (entry.group ? [entry.group] : [])))];
  return (
    <List component="nav" aria-label="Main menu" dense>
      {entries.filter((entry) => !entry.group).map(link)}
      {groups.map((group) => (
        <Box key={group} role="group" aria-label={group}>
          <ListSubheader component="div" disableSticky sx={{ lineHeight: 2.5, mt: 1 }}>
            {group}
          </ListSubheader>
          {entries.filter((entry) => entry.group === group).map(link)}
        </Box>
      ))}
    </List>
  );
}

/**
 * The top bar's service code: the one the person is looking at (chosen on a list or the dashboard,
 * else their stored one); the Afcon-only account has none of its own, so its campaign's code.
 */
function useServiceCodeText(user: LoginUser | null): string {
  const afcon = Boolean(user?.isAfcon);
  const chosen = useAppSelector(selectChosenView).serviceCode;
  const campaigns = useGetCampaignsQuery(undefined, { skip: !afcon });
  if (!afcon) return chosen === null ? sessionServiceCode(user) : chosen || ALL_SERVICE_CODES;
  return campaigns.data?.find((campaign) => campaign.key === 'afcon-2024')?.serviceCode ?? '';
}

/** The private shell of SPEC §2: sidebar by role, top bar, page, settings panel, footer. */
export default function AppShell() {
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('md'));
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectSessionUser);
  const settingsVisible = useAppSelector(selectSettingsVisible);
  const logout = useLogout();
  const serviceCode = useServiceCodeText(user);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  const homePath = homePathFor(user);
  const enrolFirst = Boolean(user?.twoFactorSetupRequired);
  // Whoever reads the calls' lists searches them; the Afcon-only account reads its campaign's lists alone.
  const canSearch = !enrolFirst && canOpen(user, '/search');
  const home = { path: homePath, label: menuFor(user).find((entry) => entry.path === homePath)?.label ?? 'your first screen' };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <LoadingOverlay />
      <SkipLink />
      {/* Above the permanent sidebar on desktop; below the temporary drawer on mobile. */}
      <AppBar position="fixed" elevation={0} sx={mobile ? undefined : { zIndex: theme.zIndex.drawer + 1 }}>
        <Toolbar variant="dense" sx={{ gap: { xs: 1, md: 2 } }}>
          {mobile && (
            <IconButton color="inherit" edge="start" aria-label="Open menu" onClick={() => setDrawerOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" component="div" sx={{ fontWeight: 700, flexGrow: 1 }}>
            Dialdesk
          </Typography>
          {/* Until two-factor is on, the server answers such a user nothing but its set-up and profile. */}
          {canSearch && <TopBarSearch compact={mobile} />}
          {!enrolFirst && <LiveStatus />}
          <Typography variant="body2">Username: {user?.userName ?? ''}</Typography>
          {!mobile && <Typography variant="body2">Service code: {serviceCode}</Typography>}
          {!enrolFirst && <IncidentCount />}
          <IconButton
            color="inherit"
            aria-label={settingsVisible ? 'Hide settings' : 'Show settings'}
            aria-pressed={settingsVisible}
            onClick={() => dispatch(settingsVisibilitySet(!settingsVisible))}
          >
            <TuneIcon />
          </IconButton>
          {!mobile && (
            <Button color="inherit" startIcon={<LogoutIcon />} onClick={logout}>
              Logout
            </Button>
          )}
        </Toolbar>
      </AppBar>

      {mobile ? (
        <Drawer
          variant="temporary"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          transitionDuration={MOBILE_DRAWER_MS}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH + 40 } } }}
        >
          {/* Logout beside the greeting, in the first screen whatever the menu's length. */}
          <Box sx={{ p: 2, display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="subtitle1" noWrap>
                Hi, {user?.userName ?? ''}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Service code: {serviceCode}
              </Typography>
            </Box>
            <Button variant="outlined" size="small" startIcon={<LogoutIcon />} onClick={logout} sx={{ flexShrink: 0 }}>
              Logout
            </Button>
          </Box>
          <Divider />
          <SideMenu onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          sx={{ width: DRAWER_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
        >
          <Toolbar variant="dense" />
          <SideMenu />
        </Drawer>
      )}

      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar variant="dense" />
        {/* At least a screen tall, so the footer starts below the fold and a page's data arriving cannot move it in view. */}
        <Box sx={{ display: 'flex', flexDirection: 'column', flexGrow: 1, gap: 2, p: 2, minHeight: '100vh' }}>
          {/* A strip above the page rather than a column beside it, so dense grids keep their width. */}
          {settingsVisible && !mobile && (
            <Paper component="aside" variant="outlined" aria-label="Settings panel" sx={{ px: 2, py: 1 }}>
              <SettingsPanel orientation="row" />
            </Paper>
          )}
          <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, '&:focus': { outline: 'none' } }}>
            {/* The bars and menu stay while a screen's code loads. */}
            <Suspense fallback={<PageFallback />}>{canOpen(user, pathname) ? <Outlet /> : <NoAccess home={home} />}</Suspense>
          </Box>
        </Box>
        <Box component="footer" sx={{ px: 2, py: 1, color: 'text.secondary', typography: 'body2' }}>
          © {new Date().getFullYear()} Dialdesk
        </Box>
      </Box>
    </Box>
  );
}
