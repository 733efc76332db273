import { forwardRef, useEffect, useRef, useState, type CSSProperties, type PointerEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import CloseIcon from '@mui/icons-material/Close';

/** SPEC §8: a toast closes after 5000 ms. */
export const TOAST_MS = 5000;
/** How often the time left is counted down (and the bar redrawn). */
const TICK_MS = 100;
/** A drag this far sideways (px) dismisses the toast; a shorter one springs back. */
export const SWIPE_DISMISS_PX = 80;
/** A press that moves less than this (px) is a click, which closes the toast. */
const CLICK_SLOP_PX = 5;

export type ToastVariant = 'default' | 'success' | 'error' | 'warning' | 'info';

/**
 * Whether the window has the focus: a toast's time does not run while the person is elsewhere.
 * Focused until a blur says otherwise, as notistack does (a page opened in the background would
 * otherwise keep its toasts forever, and jsdom never has the focus).
 */
function useWindowFocused() {
  const [focused, setFocused] = useState(true);
  useEffect(() => {
    const onFocus = () => setFocused(true);
    const onBlur = () => setFocused(false);
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
    };
  }, []);
  return focused;
}

/** Milliseconds left of `duration`, counted only while not `paused`; `onDone` once it reaches 0. */
function useCountdown(duration: number, paused: boolean, onDone: () => void) {
  const [left, setLeft] = useState(duration);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);
  useEffect(() => {
    if (paused) return undefined;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      const elapsed = now - last;
      last = now;
      setLeft((previous) => Math.max(0, previous - elapsed));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [paused]);
  useEffect(() => {
    if (left === 0) done.current();
  }, [left]);
  return left;
}

export interface ToastViewProps {
  message: ReactNode;
  variant: ToastVariant;
  onClose: () => void;
  /** The message element's id (notistack's content uses 'notistack-snackbar'). */
  messageId?: string;
  style?: CSSProperties;
  className?: string;
  /** A control beside the message (a resolve's Undo); its click is its own, not the toast's close. */
  action?: ReactNode;
  /** How long it stays, when not SPEC's 5000 ms: a toast offering Undo stays as long as the undo is possible. */
  durationMs?: number;
}

/**
 * One toast as SPEC §8 sets them: a bar shows the time left of 5000 ms; the time stops while the
 * pointer is over it or the window is not focused; a click closes it and so does a sideways drag
 * (swipe) past SWIPE_DISMISS_PX. Colours are the theme's, at AA contrast (components/theme.ts).
 */
export const ToastView = forwardRef<HTMLDivElement, ToastViewProps>(function ToastView(
  { message, variant, onClose, messageId, style, className, action, durationMs = TOAST_MS },
  ref,
) {
  const [hovered, setHovered] = useState(false);
  const [drag, setDrag] = useState<{ startX: number; dx: number } | null>(null);
  const moved = useRef(false);
  const focused = useWindowFocused();
  const left = useCountdown(durationMs, hovered || !focused || drag !== null, onClose);
  const dx = drag?.dx ?? 0;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    moved.current = false;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setDrag({ startX: event.clientX, dx: 0 });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const next = event.clientX - drag.startX;
    if (Math.abs(next) > CLICK_SLOP_PX) moved.current = true;
    setDrag({ ...drag, dx: next });
  };
  const onPointerUp = () => {
    if (!drag) return;
    setDrag(null);
    if (Math.abs(drag.dx) >= SWIPE_DISMISS_PX) onClose();
  };

  const palette = variant === 'default' ? { bgcolor: 'grey.900', color: 'common.white' } : { bgcolor: `${variant}.main`, color: `${variant}.contrastText` };
  const fraction = left / durationMs;
  return (
    <Paper
      ref={ref}
      role="alert"
      elevation={6}
      className={className}
      data-variant={variant}
      data-paused={hovered || !focused || drag !== null ? 'true' : 'false'}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      onClick={() => {
        // The end of a drag is not a click.
        if (!moved.current) onClose();
      }}
      style={{
        ...style,
        transform: dx ? `translateX(${dx}px)` : style?.transform,
        opacity: dx ? Math.max(0.2, 1 - Math.abs(dx) / (SWIPE_DISMISS_PX * 2.5)) : style?.opacity,
      }}
      sx={{
        ...palette,
        position: 'relative',
        overflow: 'hidden',
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minWidth: { sm: 288 },
        maxWidth: 'calc(100vw - 32px)',
        pl: 2,
        pr: 1,
        py: 1,
        cursor: 'pointer',
        touchAction: 'pan-y',
        userSelect: 'none',
        typography: 'body2',
        transition: drag ? 'none' : 'transform 150ms, opacity 150ms',
      }}
    >
      <Box id={messageId} sx={{ flexGrow: 1, py: 0.5 }}>
        {message}
      </Box>
      {action ? (
        <Box
          onClick={(event) => event.stopPropagation()}
          sx={{ display: 'flex', alignItems: 'center', flex: 'none' }}
        >
          {action}
        </Box>
      ) : null}
      <IconButton size="small" color="inherit" aria-label="Close"
        onClick={(event) => {
          event.stopPropagation();
          onClose();
        }}
      >
        <CloseIcon fontSize="small" />
      </IconButton>
      <Box
        role="progressbar"
        aria-label="Time left"
        aria-valuemin={0}
        aria-valuemax={durationMs}
        aria-valuenow={Math.round(left)}
        sx={{ position: 'absolute', left: 0, bottom: 0, height: 4, width: '100%', bgcolor: 'currentColor', opacity: 0.7, transformOrigin: 'left' }}
        style={{ transform: `scaleX(${fraction})`, transition: `transform ${TICK_MS}ms linear` }}
      />
    </Paper>
  );
});
