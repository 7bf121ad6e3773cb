#!/usr/bin/env node
// Entry point of the agent-contracts CLI. The generator is TypeScript, run through tsx's loader.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../generators/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
