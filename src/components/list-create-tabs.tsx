import { Suspense, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { PageFallback } from './page-fallback';

export type ListCreateTab = 'all' | 'new';

export interface ListCreateTabsProps {
  /** The heading, also the tabs' accessible name. */
  title: string;
  /** The second tab, as SPEC §2 names the create form. */
  createLabel: string;
  tab: ListCreateTab;
  onTabChange: (tab: ListCreateTab) => void;
  list: ReactNode;
  /** Lazy: its code loads when the tab opens. */
  createForm: ReactNode;
  /** The row's edit dialog while one is open; lazy too. */
  editDialog?: ReactNode;
}

/**
 * The layout of the users and catalogue screens (SPEC §2): a heading, the tabs 'All' and the
 * create form, the list or the form, and a row's edit dialog. The form and the dialog load their
 * code when opened, so each waits in a Suspense of its own.
 */
export function ListCreateTabs({ title, createLabel, tab, onTabChange, list, createForm, editDialog }: ListCreateTabsProps) {
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Tabs value={tab} onChange={(_event, next: ListCreateTab) => onTabChange(next)} aria-label={title}>
        <Tab value="all" label="All" />
        <Tab value="new" label={createLabel} />
      </Tabs>
      {tab === 'all' ? list : <Suspense fallback={<PageFallback />}>{createForm}</Suspense>}
      {editDialog && <Suspense fallback={null}>{editDialog}</Suspense>}
    </Stack>
  );
}
