import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import { customerPath } from '../../domain/customers';

/** A phone number in a list, opening its customer's page: every call, figures and timelines. */
export function CustomerLink({ phoneNumber }: { phoneNumber: string }) {
  return (
    <Link component={RouterLink} to={customerPath(phoneNumber)} underline="hover" title={`Customer ${phoneNumber}`} sx={{ whiteSpace: 'nowrap' }}>
      {phoneNumber}
    </Link>
  );
}
