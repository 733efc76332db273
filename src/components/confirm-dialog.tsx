import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface ConfirmDialogProps {
  open: boolean;
  /** Names the title and text for assistive technology: `${id}-title`, `${id}-text`. */
  id: string;
  title: ReactNode;
  /** What the action does, said before it is done; nothing shown when empty. */
  text: ReactNode;
  confirmLabel: string;
  /** The spinner's name while the action runs ('Resetting'). */
  busyLabel: string;
  busy: boolean;
  /** 'error' for what cannot be taken back lightly. */
  color?: 'primary' | 'error';
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Asks before an action a stray click must not do: Cancel, or the action with a spinner while it
 * runs. Neither button nor Escape closes it while the action is under way.
 */
export function ConfirmDialog({ open, id, title, text, confirmLabel, busyLabel, busy, color = 'primary', onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} fullWidth maxWidth="xs">
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>{text && <DialogContentText id={`${id}-text`}>{text}</DialogContentText>}</DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" color={color} onClick={onConfirm} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" aria-label={busyLabel} /> : undefined}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
