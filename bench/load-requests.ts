/**
 * autocannon over several requests in turn (its command line takes one URL), run in a process of its
 * own like the command line: `node --import tsx bench/load-requests.ts '<json Options>'` prints the
 * result as JSON. Each connection walks the list from its start, so the pages are read in a mix.
 */
import autocannon, { type Options } from 'autocannon';

autocannon(JSON.parse(process.argv[2]) as Options).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
