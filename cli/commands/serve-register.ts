import type { Command } from 'commander';
import type { Io } from '../logger.ts';

/** Registers `content serve` and `content enquiries …` on the program. */
export function registerServeCommands(_program: Command, _io: Io, _setExit: (code: number) => void): void {}
