#!/usr/bin/env node
// Runs the TypeScript CLI straight from a clone (no build step): tsx compiles on load.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
