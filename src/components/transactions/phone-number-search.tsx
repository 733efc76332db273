import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';

export interface PhoneNumberSearchProps {
  /** The number searched for now ('' before the first search). */
  phoneNumber: string;
  /** A new number to search for. */
  onSearch: (phoneNumber: string) => void;
  /** The same number searched again: load it anew. */
  onSearchAgain: () => void;
}

/** SPEC §2 Transaction search: a phone number field and the Search button. */
export function PhoneNumberSearch({ phoneNumber, onSearch, onSearchAgain }: PhoneNumberSearchProps) {
  const [input, setInput] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = input.trim();
    if (next === phoneNumber && phoneNumber) onSearchAgain();
    else onSearch(next);
  };
  return (
    <Stack component="form" direction="row" spacing={2} sx={{ mb: 2 }} onSubmit={onSubmit}>
      <TextField size="small" label="Phone number" value={input} onChange={(e) => setInput(e.target.value)} />
      <Button type="submit" variant="contained" disabled={!input.trim()}>
        Search
      </Button>
    </Stack>
  );
}
