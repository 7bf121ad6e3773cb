// The command table: each command lives in its own module.
import { breakingCommand } from "./breaking.js";
import { conformanceCommand } from "./conformance.js";
import { docsCommand } from "./docs.js";
import { generateCommand } from "./generate.js";
import { initCommand } from "./init.js";
import type { Command } from "./io.js";
import { lifecycleCommand } from "./lifecycle.js";
import { lintCommand } from "./lint.js";
import { listCommand } from "./list.js";
import { mockCommand } from "./mock.js";
import { canonicalizeCommand, idCommand, signCommand, verifyCommand } from "./signing.js";
import { validateCommand } from "./validate.js";

export const commands: Record<string, Command> = {
  init: initCommand,
  generate: generateCommand,
  list: listCommand,
  lint: lintCommand,
  validate: validateCommand,
  lifecycle: lifecycleCommand,
  canonicalize: canonicalizeCommand,
  sign: signCommand,
  verify: verifyCommand,
  id: idCommand,
  conformance: conformanceCommand,
  mock: mockCommand,
  docs: docsCommand,
  breaking: breakingCommand,
};
