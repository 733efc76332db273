import { useState, type FormEvent, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { INVALID_PHONE_MESSAGE, SEARCH_PHONE_PATTERN } from '../../domain/phone';

const digitsOf = (text: string) => text.replace(/\D/g, '');

export interface PhoneNumberSearchProps {
  /** The number searched for now ('' before the first search). */
  phoneNumber: string;
  /** A new number to search for. */
  onSearch: (phoneNumber: string) => void;
  /** The same number searched again: load it anew. */
  onSearchAgain: () => void;
  /** More of the search beside the button (the search's range of days); a narrow screen wraps them. */
  children?: ReactNode;
}

/**
 * SPEC §2 Transaction search: a phone number field and the Search button. A number the API would
 * refuse is said in the field and not sent, rather than answered with 'Unexpected error'.
 */
export function PhoneNumberSearch({ phoneNumber, onSearch, onSearchAgain, children }: PhoneNumberSearchProps) {
  const [input, setInput] = useState(phoneNumber);
  const [shownNumber, setShownNumber] = useState(phoneNumber);
  const [error, setError] = useState<string | null>(null);
  // A number from outside (a link, Back) replaces what was typed, unless it is the same number
  // written otherwise. No number (a plain /search) leaves the field alone: what is typed meanwhile stays.
  if (shownNumber !== phoneNumber) {
    setShownNumber(phoneNumber);
    if (phoneNumber && digitsOf(input) !== phoneNumber) {
      setInput(phoneNumber);
      setError(null);
    }
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = input.trim();
    if (!SEARCH_PHONE_PATTERN.test(next)) {
      setError(INVALID_PHONE_MESSAGE);
      return;
    }
    // The list keeps the number's digits (the URL carries them): '+256 7…' searched again is the same search.
    if (phoneNumber && digitsOf(next) === digitsOf(phoneNumber)) onSearchAgain();
    else onSearch(next);
  };
  return (
    <Stack component="form" noValidate direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'flex-start', flexWrap: 'wrap' }} onSubmit={onSubmit}>
      <TextField
        size="small"
        label="Phone number"
        value={input}
        onChange={(event) => {
          setInput(event.target.value);
          setError(null);
        }}
        error={error !== null}
        helperText={error}
        slotProps={{ htmlInput: { inputMode: 'tel' } }}
      />
      <Button type="submit" variant="contained" disabled={!input.trim()}>
        Search
      </Button>
      {children}
    </Stack>
  );
}
