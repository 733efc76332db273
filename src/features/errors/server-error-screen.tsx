import { StatusPage } from './status-page';

/** SPEC §2: server error page. */
export default function ServerErrorScreen() {
  return <StatusPage code="500" color="error" title="Something went wrong on our side" message="Please try again in a moment." />;
}
