import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

/** The Failed queue's keys, as the help dialog lists them. */
export const QUEUE_SHORTCUTS: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ['j'], action: 'Next call' },
  { keys: ['k'], action: 'Previous call' },
  { keys: ['r'], action: 'Resolve the call, with a reason and a note' },
  { keys: ['o', 'Enter'], action: 'Open the call’s details' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

/** '?' on a queue (the Failed lists by default): the shortcuts, keys beside what they do. */
export function QueueShortcutsDialog({ open, onClose, shortcuts = QUEUE_SHORTCUTS }: { open: boolean; onClose: () => void; shortcuts?: readonly { keys: readonly string[]; action: string }[] }) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="queue-shortcuts-title" fullWidth maxWidth="xs">
      <DialogTitle id="queue-shortcuts-title">Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            columnGap: 2,
            rowGap: 1,
            alignItems: 'baseline',
            '& dt': { display: 'flex', gap: 0.5 },
            '& dd': { m: 0, typography: 'body2' },
            '& kbd': {
              fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
              fontSize: 13,
              minWidth: 24,
              textAlign: 'center',
              px: 0.75,
              py: 0.25,
              border: 1,
              borderColor: 'divider',
              borderBottomWidth: 2,
              borderRadius: 1,
              bgcolor: 'action.hover',
            },
          }}
        >
          {shortcuts.map(({ keys, action }) => (
            <Box key={action} sx={{ display: 'contents' }}>
              <dt>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && ' or '}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{action}</dd>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
