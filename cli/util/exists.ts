import { lstatSync } from 'node:fs';

/** Whether anything is at `path`, a dangling link included (existsSync follows links, and says no for one). */
export function existsOrLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
