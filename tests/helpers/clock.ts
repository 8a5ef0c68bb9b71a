/** How far ahead `later` puts the clock: well past the parse memo's three seconds (cli/incremental/parse-memo.ts, RACY_NS). */
const AHEAD_MS = 60_000;

/**
 * Runs `run` as if a minute had passed since every file was last written: `Date.now()`, the clock the
 * load stage reads before it reads a file (cli/load/load.ts), is a minute ahead until `run` is done.
 * The parse memo keeps no file changed in the last three seconds (git's racy rule), judged by its
 * ctime, which no call can set into the past (`utimes` sets ctime to now): so the run moves forward
 * instead of waiting for the files to age. In-process runs only (a child process has its own clock).
 */
export async function later<T>(run: () => T | Promise<T>): Promise<T> {
  const now = Date.now;
  Date.now = () => now() + AHEAD_MS;
  try {
    return await run();
  } finally {
    Date.now = now;
  }
}
