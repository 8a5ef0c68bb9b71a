#!/usr/bin/env node
// The `content` command. TypeScript runs through tsx's loader, so there is no compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
