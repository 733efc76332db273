import { StatusPage } from './status-page';

/** SPEC §2: not-found page with a go-home link. */
export default function NotFoundScreen() {
  return <StatusPage code="404" color="primary" title="Page not found" message="The page you are looking for does not exist or has moved." />;
}
