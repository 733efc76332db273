import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { procCpuMs } from './measure';

export interface ServerProcess {
  url: string;
  /** The process's peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** The CPU time the process has used (user and system), in ms. */
  cpuMs(): number;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies mid-request, as in a power cut (bench:ingest --crash). */
  kill(): Promise<void>;
}

/** bench/api-server.ts of the checkout at `root`, alone in its own process, resolved once it listens. */
export function startServer(env: Record<string, string>, root = path.join(__dirname, '..')): Promise<ServerProcess> {
  return startProcess(['--import', 'tsx', path.join(root, 'bench', 'api-server.ts')], env, root, /listening (\d+)/);
}

/**
 * The built server (`npm run build` first) as `npm run serve` runs it: `node dist/server/server/src/main.js`
 * with its configuration in `env` (PORT, DATABASE_URL or DATA_DIR, providers…), resolved once it listens.
 */
export function startBuiltServer(env: Record<string, string>, root = path.join(__dirname, '..')): Promise<ServerProcess> {
  const main = path.join(root, 'dist', 'server', 'server', 'src', 'main.js');
  if (!fs.existsSync(main)) return Promise.reject(new Error(`${main} is missing: run npm run build first`));
  // BENCH_SERVER_NODE_OPTIONS: extra node flags for the server alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), to profile it under the bench's load.
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [];
  return startProcess([...extra, main], env, root, /running on http:\/\/[^:]+:(\d+)/);
}

/** Node running `args` in `root`, resolved when its output matches `ready` (the port in group 1). */
function startProcess(args: string[], env: Record<string, string>, root: string, ready: RegExp): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolve, reject) => {
    let output = '';
    let listening = false;
    const early = (code: number | null) => reject(new Error(`server exited with ${code}: ${output.slice(-2000)}`));
    child.once('exit', early);
    // The listener stays to drain the pipe; once the server listens its output is dropped.
    child.stdout.on('data', (chunk: Buffer) => {
      if (listening) return;
      output = (output + chunk.toString()).slice(-10_000);
      const port = ready.exec(output)?.[1];
      if (!port) return;
      listening = true;
      child.off('exit', early);
      resolve({
        url: `http://127.0.0.1:${port}`,
        peakRssMb: () => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024),
        cpuMs: () => procCpuMs(child.pid!),
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
        kill: () => {
          child.kill('SIGKILL');
          return exited;
        },
      });
    });
  });
}
