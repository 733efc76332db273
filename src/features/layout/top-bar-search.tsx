import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { useLookupMutation } from '../../api/customers-api';
import { useSubmit } from '../../components/use-submit';

/**
 * A name that holds none of the screens' own field and button names ('Search', 'Phone number', 'To',
 * 'Date'…), so finding one of them by name never finds this field too.
 */
const LABEL = 'Find a caller or call: a number, payment reference or call id';

/**
 * The top bar's search: a phone number opens its customer's page, a payment reference or a call id
 * that call's Details on its customer's page. A field on a wide screen; on a phone an icon that
 * opens the field over the bar, so the bar's other controls keep their room.
 */
export function TopBarSearch({ compact }: { compact: boolean }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [lookup, { isLoading }] = useLookupMutation();
  const navigate = useNavigate();
  const submit = useSubmit({ replacePrevious: true });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (!q) return;
    await submit(
      async () => {
        const found = await lookup(q).unwrap();
        navigate(found.path, { state: found.transaction ? { transaction: found.transaction } : null });
        setText('');
        setOpen(false);
      },
      { success: null, failure: (info) => (info.status === 404 ? 'No call or customer matches that search' : info.message || 'Unexpected error') },
    );
  };

  if (compact && !open) {
    return (
      <IconButton color="inherit" aria-label="Find a customer or call" onClick={() => setOpen(true)}>
        <SearchIcon />
      </IconButton>
    );
  }
  const field = (
    <Box
      component="form"
      role="search"
      aria-label="Find a customer or call"
      onSubmit={onSubmit}
      sx={{ display: 'flex', alignItems: 'center', bgcolor: 'background.paper', color: 'text.primary', borderRadius: 1, pl: 1, minWidth: 0, width: compact ? '100%' : 260 }}
    >
      <SearchIcon fontSize="small" aria-hidden sx={{ color: 'text.secondary' }} />
      <InputBase
        autoFocus={compact}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Phone, reference or call id"
        disabled={isLoading}
        inputProps={{ 'aria-label': LABEL, maxLength: 100, enterKeyHint: 'search' }}
        sx={{ flex: 1, minWidth: 0, px: 1, fontSize: 14, '& input::placeholder': { opacity: 0.75 } }}
      />
      {compact && (
        <IconButton size="small" aria-label="Close" onClick={() => setOpen(false)}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
  if (!compact) return field;
  // Over the whole bar while open, at the bar's own height.
  return (
    <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', px: 1, bgcolor: 'primary.main', zIndex: 2 }}>
      {field}
    </Box>
  );
}
