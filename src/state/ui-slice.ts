import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GridColumnVisibilityModel, GridDensity } from '@mui/x-data-grid';

export type ColorMode = 'light' | 'dark';

/** Preferences remembered across visits (DESIGN §1). */
export interface UiState {
  settingsVisible: boolean;
  colorMode: ColorMode;
  density: GridDensity;
  /** Hidden columns per grid key, e.g. columnVisibility.users = { role: false }. */
  columnVisibility: Record<string, GridColumnVisibilityModel>;
}

const initialState: UiState = {
  settingsVisible: true,
  colorMode: 'light',
  density: 'compact',
  columnVisibility: {},
};

const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    settingsVisibilitySet: (state, action: PayloadAction<boolean>) => {
      state.settingsVisible = action.payload;
    },
    colorModeSet: (state, action: PayloadAction<ColorMode>) => {
      state.colorMode = action.payload;
    },
    densitySet: (state, action: PayloadAction<GridDensity>) => {
      state.density = action.payload;
    },
    columnVisibilitySet: (state, action: PayloadAction<{ gridKey: string; model: GridColumnVisibilityModel }>) => {
      state.columnVisibility[action.payload.gridKey] = action.payload.model;
    },
  },
  selectors: {
    selectSettingsVisible: (state) => state.settingsVisible,
    selectColorMode: (state) => state.colorMode,
    selectDensity: (state) => state.density,
    selectColumnVisibility: (state, gridKey: string | undefined) =>
      gridKey ? state.columnVisibility[gridKey] : undefined,
  },
});

export const { settingsVisibilitySet, colorModeSet, densitySet, columnVisibilitySet } = uiSlice.actions;
export const { selectSettingsVisible, selectColorMode, selectDensity, selectColumnVisibility } = uiSlice.selectors;
export const uiReducer = uiSlice.reducer;
