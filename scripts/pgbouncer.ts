import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';

/** Debian's PgBouncer (`apt-get install -y pgbouncer`). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  /** postgres://…@127.0.0.1:<port>/<database> through PgBouncer. */
  url: string;
  /** CPU time PgBouncer has used, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * PgBouncer in front of the PostgreSQL server of `serverUrl`, for its database `database`, in
 * session pooling (README: Running on PostgreSQL): the API's named prepared statements and the live
 * feed's LISTEN need their server connection for as long as the client's. Listens on 127.0.0.1 only.
 */
export async function startPgBouncer(serverUrl: string, database: string, { poolSize = 60 } = {}): Promise<RunningPgBouncer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-pgbouncer-'));
  // PgBouncer refuses to run as root; it then runs as postgres, which must reach its folder.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new URL(serverUrl);
  const user = server.username || 'postgres';
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      // The API asks for jit=off as a startup option, which PgBouncer does not pass on: it sets it on its server connections instead.
      `${database} = host=${server.hostname} port=${server.port || 5432} dbname=${database} user=${user} connect_query='SET jit = off'`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = any',
      'pool_mode = session',
      'ignore_startup_parameters = options',
      'max_client_conn = 400',
      `default_pool_size = ${poolSize}`,
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://${user}@127.0.0.1:${port}/${database}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${fs.existsSync(path.join(dir, 'pgbouncer.log')) ? fs.readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8').slice(-1000) : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    cpuMs() {
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
