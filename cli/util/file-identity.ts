/**
 * A file a build wrote, as it was on disk: what a later build checks (lstat) before it takes the
 * file over, so that a file edited or replaced since is written anew, never trusted.
 */
export interface FileIdentity {
  file: string;
  ino: number;
  size: number;
  mtimeMs: number;
}
