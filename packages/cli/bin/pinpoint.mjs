#!/usr/bin/env node
// The linked `pinpoint` binary: runs the TypeScript entry through tsx (no build step in this repo).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
