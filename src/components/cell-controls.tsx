import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { alpha, type Theme } from '@mui/material/styles';

/**
 * A chip, a button and an icon button for grid cells, drawn by plain elements and a few global
 * class rules (`cellControlStyles`, installed once by the app's providers) instead of MUI's
 * Chip, Button and IconButton. A 50-row list renders 150–200 of them: as MUI components each is
 * two or three styled elements serialised by emotion on every render, plus a ripple, which made
 * the rows' render the page's longest task (Lighthouse's total blocking time). They
 * look like MUI's small variants in both colour modes.
 */

export type CellColor = 'primary' | 'success' | 'error' | 'warning' | 'info' | 'default';

export function CellChip({ color = 'default', label }: { color?: CellColor; label: string }) {
  return <span className={`cell-chip cell-color-${color}`}>{label}</span>;
}

type NativeButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'type' | 'color'>;

export interface CellButtonProps extends NativeButtonProps {
  variant?: 'text' | 'outlined' | 'contained';
  color?: CellColor;
  children: ReactNode;
}

/**
 * Disabled, it stays focusable and hoverable (aria-disabled, clicks ignored), so the tooltip a
 * screen wraps it in can say why on hover and on keyboard focus.
 */
export function CellButton({ variant = 'text', color = 'primary', disabled, onClick, children, ...props }: CellButtonProps) {
  // A Tooltip around it hands it a className of its own: kept beside ours.
  const { className: added, ...rest } = props as typeof props & { className?: string };
  return (
    <button
      type="button"
      className={`cell-button cell-button-${variant} cell-color-${color}${added ? ` ${added}` : ''}`}
      aria-disabled={disabled || undefined}
      onClick={disabled ? undefined : onClick}
      {...rest}
    >
      {children}
    </button>
  );
}

/** An icon-only button: `aria-label` names it, and the same words show on hover. */
export function CellIconButton({ color = 'primary', children, ...props }: NativeButtonProps & { color?: CellColor; 'aria-label': string; children: ReactNode }) {
  return (
    <button type="button" className={`cell-icon-button cell-color-${color}`} title={props.title ?? props['aria-label']} {...props}>
      {children}
    </button>
  );
}

const COLORS: Exclude<CellColor, 'default'>[] = ['primary', 'success', 'error', 'warning', 'info'];

/** The class rules behind the controls above, for the theme's global styles. */
export function cellControlStyles(theme: Theme) {
  const { palette, typography, shape } = theme;
  const focus = { outline: `2px solid ${palette.primary.main}`, outlineOffset: 1 };
  const perColor = Object.fromEntries(
    COLORS.flatMap((color) => {
      const { main, dark, contrastText } = palette[color];
      return [
        [`.cell-chip.cell-color-${color}`, { backgroundColor: main, color: contrastText }],
        [`.cell-button-contained.cell-color-${color}`, { backgroundColor: main, color: contrastText, '&:hover': { backgroundColor: dark } }],
        [`.cell-button-outlined.cell-color-${color}`, { color: main, borderColor: alpha(main, 0.5), '&:hover': { borderColor: main, backgroundColor: alpha(main, palette.action.hoverOpacity) } }],
        [`.cell-button-text.cell-color-${color}, .cell-icon-button.cell-color-${color}`, { color: main, '&:hover': { backgroundColor: alpha(main, palette.action.hoverOpacity) } }],
      ];
    }),
  );
  const button = {
    ...typography.button,
    fontSize: typography.pxToRem(13),
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    border: 0,
    margin: 0,
    cursor: 'pointer',
    backgroundColor: 'transparent',
    '&:focus-visible': focus,
  };
  // Unlike MUI's faint disabled grey, text at AA contrast (text.secondary) on a flat fill or a
  // thin border, no hover: plainly not a live button, still readable. After the
  // colour rules and one class more, so it wins over each of them.
  const disabled = { color: palette.text.secondary, cursor: 'not-allowed', boxShadow: 'none' };
  const disabledRules = {
    '.cell-button.cell-button[aria-disabled="true"], .cell-button.cell-button[aria-disabled="true"]:hover': { ...disabled, backgroundColor: 'transparent' },
    '.cell-button-contained.cell-button[aria-disabled="true"], .cell-button-contained.cell-button[aria-disabled="true"]:hover': { backgroundColor: palette.action.disabledBackground },
    '.cell-button-outlined.cell-button[aria-disabled="true"], .cell-button-outlined.cell-button[aria-disabled="true"]:hover': { borderColor: palette.divider, borderStyle: 'dashed' },
  };
  return {
    '.cell-chip': {
      display: 'inline-flex',
      alignItems: 'center',
      height: 24,
      padding: '0 8px',
      borderRadius: 12,
      whiteSpace: 'nowrap',
      fontFamily: typography.fontFamily,
      fontSize: typography.pxToRem(13),
      backgroundColor: palette.action.selected,
      color: palette.text.primary,
    },
    '.cell-button': { ...button, minWidth: 64, padding: '4px 5px', borderRadius: shape.borderRadius },
    '.cell-button-contained': { padding: '4px 10px' },
    '.cell-button-outlined': { padding: '3px 9px', border: '1px solid' },
    '.cell-icon-button': { ...button, padding: 4, borderRadius: '50%', '& svg': { width: 20, height: 20, fill: 'currentColor' } },
    ...perColor,
    ...disabledRules,
  };
}

/** MUI's InfoOutlined, drawn inline so a grid row needs no SvgIcon component. */
export function InfoOutlinedGlyph() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M11 7h2v2h-2zm0 4h2v6h-2zm1-9C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8" />
    </svg>
  );
}
