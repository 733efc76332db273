import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';

export interface ServerProcess {
  url: string;
  /** The process's peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** The CPU time the process has used (user and system), in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts bench/api-server.ts in its own process and waits until it listens. */
/** bench/api-server.ts of the checkout at `root`, alone in its own process, resolved once it listens. */
export function startServer(env: Record<string, string>, root = path.join(__dirname, '..')): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'api-server.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (!port) return;
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${port}`,
        peakRssMb: () => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024),
        cpuMs: () => {
          // Fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms.
          const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return (Number(fields[11]) + Number(fields[12])) * 10;
        },
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
