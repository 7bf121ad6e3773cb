// Every target the pipeline runs, in order. One line per target; the folder beside it holds the
// emitter, its templates and its hand-written runtime. The docs site (targets/docs) is not listed:
// it builds into docs-site/dist, which is not committed, from the same model (`make docs`).
import { coverageTarget } from "./coverage/target.js";
import { kotlinTarget } from "./kotlin/target.js";
import { pathsTarget } from "./paths/target.js";
import { releaseTarget } from "./release/target.js";
import { rustTarget } from "./rust/target.js";
import { swiftTarget } from "./swift/target.js";
import type { Target } from "./target.js";
import { tsTarget } from "./ts/target.js";

export const TARGETS: readonly Target<unknown>[] = [tsTarget, kotlinTarget, swiftTarget, rustTarget, coverageTarget, pathsTarget, releaseTarget];
