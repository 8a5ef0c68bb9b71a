import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { LOCK_FILE } from './inbox-lock.ts';
import type { AdminResult } from './store.ts';

/**
 * What `content enquiries` asks of a file inbox that changes it (or needs it still for a
 * moment). Only the process that holds the inbox's lock writes it: while `content serve` runs,
 * the command leaves its request in the inbox's `requests/` folder, and the server carries it
 * out between two writes and leaves the answer beside it. With no server running, the command
 * takes the lock and does it itself. One writer, one way of writing, either way.
 */
export type AdminRequest = { op: 'erase'; ids: number[]; why: string } | { op: 'restore'; id: number } | { op: 'resend'; id: number } | { op: 'snapshot' };

export interface InboxSnapshot {
  enquiries: string;
  mailLog: string;
  lastId: number;
  retentionDays?: number;
}

/** What a request changes or reads: the file inbox that holds the lock (an `Inbox`). */
export interface AdminTarget {
  readonly dir: string;
  erase(ids: readonly number[], why: string): Promise<number[]>;
  restore(id: number): Promise<AdminResult>;
  resend(id: number): Promise<AdminResult>;
  snapshot(): Promise<InboxSnapshot>;
}

export interface AdminAnswers {
  erase: number[];
  restore: AdminResult;
  resend: AdminResult;
  snapshot: InboxSnapshot;
}

export const REQUESTS_DIR = 'requests';
const REQUEST = /^([0-9a-f]{24})\.request\.json$/;
/** How often a server looks for requests. */
const POLL_MS = 200;
/** An answer nobody came for (the command was killed) is removed after this: it may hold a whole snapshot of the inbox. */
const LEFT_OVER_MS = 10 * 60_000;
/** A lock not renewed for this long belongs to a server that is gone (inbox-lock.ts renews it every 2 s, and calls 10 s stale). */
const HEARTBEAT_STOPPED_MS = 10_000;
/** How long a command waits for a request the server took (a rewrite of a large inbox). */
const TAKEN_WAIT_MS = 10 * 60_000;

export async function carryOut<R extends AdminRequest>(inbox: AdminTarget, request: R): Promise<AdminAnswers[R['op']]> {
  const r = request as AdminRequest;
  const result =
    r.op === 'erase'
      ? await inbox.erase(r.ids, r.why)
      : r.op === 'restore'
        ? await inbox.restore(r.id)
        : r.op === 'resend'
          ? await inbox.resend(r.id)
          : await inbox.snapshot();
  return result as AdminAnswers[R['op']];
}

/** A request as it was written, or undefined when it is not one of ours. */
function parseRequest(text: string): (AdminRequest & { expires: number }) | undefined {
  try {
    const r = JSON.parse(text) as Record<string, unknown>;
    const whole = (n: unknown) => Number.isSafeInteger(n) && (n as number) > 0;
    if (typeof r.expires !== 'number') return undefined;
    if (r.op === 'erase' && Array.isArray(r.ids) && r.ids.every(whole) && typeof r.why === 'string') return r as never;
    if ((r.op === 'restore' || r.op === 'resend') && whole(r.id)) return r as never;
    if (r.op === 'snapshot') return r as never;
  } catch {}
  return undefined;
}

/** The server's side: carries out the requests left in `requests/`, one at a time. Returns a function that stops it. */
export function answerRequests(inbox: AdminTarget): () => void {
  const folder = join(inbox.dir, REQUESTS_DIR);
  // Made by the server, so that it is the server's user's: a command run by another user (sudo) can still leave a request.
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {}
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !existsSync(folder)) return;
    busy = true;
    answerAll(inbox, folder).finally(() => {
      busy = false;
    });
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

async function answerAll(inbox: AdminTarget, folder: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (/\.answer\.json$|^\..*\.tmp$|\.taken$/.test(name)) {
      const path = join(folder, name);
      const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LEFT_OVER_MS) rmSync(path, { force: true });
      continue;
    }
    const id = REQUEST.exec(name)?.[1];
    if (!id) continue;
    const taken = join(folder, `${id}.taken`);
    try {
      renameSync(join(folder, name), taken); // claimed: the command now waits for the answer
    } catch {
      continue;
    }
    let answer: { ok: true; result: unknown } | { ok: false; error: string };
    try {
      const request = parseRequest(readFileSync(taken, 'utf8'));
      if (!request) answer = { ok: false, error: 'not a request this server understands' };
      else if (request.expires < Date.now()) answer = { ok: false, error: 'the request came too late' };
      else answer = { ok: true, result: await carryOut(inbox, request) };
    } catch (error) {
      answer = { ok: false, error: (error as Error).message };
    }
    try {
      writeFileWhole(join(folder, `${id}.answer.json`), JSON.stringify(answer), { mode: 0o600 });
    } finally {
      rmSync(taken, { force: true });
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The command's side: asks the server holding the inbox and waits for its answer. Undefined
 * when no server took the request within `waitMs` (none runs, or it is stopping): the command
 * then opens the inbox itself.
 */
export async function askOwner<R extends AdminRequest>(dir: string, request: R, waitMs = 15_000): Promise<{ answer: AdminAnswers[R['op']] } | undefined> {
  const folder = join(dir, REQUESTS_DIR);
  const id = randomBytes(12).toString('hex');
  const file = join(folder, `${id}.request.json`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // Readable by the server's user when root leaves it; it names only ids, never what a visitor wrote.
    writeFileWhole(file, JSON.stringify({ ...request, expires: Date.now() + waitMs }), { mode: 0o644 });
  } catch (error) {
    throw new UsageError(
      `cannot leave a request for the running "content serve" in ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'run this command as the user "content serve" runs as (e.g. sudo -u studio npx content enquiries …)',
    );
  }
  const answerFile = join(folder, `${id}.answer.json`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (Date.now() > deadline + TAKEN_WAIT_MS)
      throw new UsageError(
        'content serve took the request but has not answered in 10 minutes',
        'look at its log; "content enquiries list" shows whether it was done',
      );
    if (existsSync(answerFile)) {
      const answer = JSON.parse(readFileSync(answerFile, 'utf8')) as { ok: true; result: AdminAnswers[R['op']] } | { ok: false; error: string };
      rmSync(answerFile, { force: true });
      if (!answer.ok) throw new UsageError(`content serve could not do it: ${answer.error}`, 'look at its log, then try again');
      return { answer: answer.result };
    }
    // A server killed with kill -9 left its lock; its heartbeat (the lock's mtime, renewed every 2 s) has stopped.
    const beat = statSync(join(dir, LOCK_FILE), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if ((Date.now() > deadline || Date.now() - beat > HEARTBEAT_STOPPED_MS) && existsSync(file)) {
      rmSync(file, { force: true }); // not taken: nobody will carry it out now
      if (!existsSync(answerFile)) return undefined;
    }
    await sleep(50);
  }
}
