import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on 127.0.0.1, under a temporary folder. */
export interface Cluster {
  port: number;
  /** The folder of PostgreSQL's programs (pg_dump, pg_restore, psql) of the version that runs the cluster. */
  bin: string;
  /** The address of database `db` (default: postgres), as user postgres (trust authentication). */
  url(db?: string, password?: string): string;
  /** A new, empty database; returns its name. */
  createDatabase(): Promise<string>;
  /** `pg_ctl stop -m fast`: connections are cut, as in a crash of the database host's service. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its folder. */
  remove(): Promise<void>;
}

/** Debian's PostgreSQL server programs (the newest version installed), or PG_BIN. */
function binaries(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

let databases = 0;

/**
 * Starts a cluster with initdb + pg_ctl on a free port. PostgreSQL refuses to run as root: as
 * root, the folder is given to the `postgres` user and the programs run as it (runuser).
 * Returns a reason instead when PostgreSQL cannot be started here.
 */
export async function startPostgres(): Promise<Cluster | { unavailable: string }> {
  const bin = binaries();
  if (!bin) return { unavailable: "PostgreSQL's server programs are not installed (apt-get install postgresql)" };
  const root = userInfo().uid === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (root) {
    try {
      const passwd = readFileSync('/etc/passwd', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('postgres:'));
      const [, , uid, gid] = passwd?.split(':') ?? [];
      if (uid === undefined || gid === undefined) return { unavailable: 'running as root and there is no "postgres" user to run PostgreSQL as' };
      owner = { uid: Number(uid), gid: Number(gid) };
    } catch {
      return { unavailable: 'running as root and /etc/passwd cannot be read' };
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'studio-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const exec = (program: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { cwd: dir }) : run(join(bin, program), args, { cwd: dir });
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=16MB`;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '120', 'start']);
  };
  try {
    await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await start();
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-500) : '';
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `PostgreSQL did not start: ${(error as Error).message.split('\n')[0]} ${log}`.trim() };
  }
  const url = (db = 'postgres', password?: string) => `postgres://postgres${password ? `:${password}` : ''}@127.0.0.1:${port}/${db}`;
  return {
    port,
    bin,
    url,
    async createDatabase() {
      const name = `studio_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return name;
    },
    stop: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop']);
    },
    start,
    async remove() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
