// The workflow-stream framing, read from the protocol's x-sse block (never hard-coded): split the
// body into "\n\n"-terminated blocks, classify each block by its first line, validate each payload
// against the message x-sse names for its frame kind.
import { readSpecFile } from "../load/spec-file.js";
import { KitFailure } from "./failures.js";
import type { Frame, FrameKind, Json } from "./types.js";

interface FrameLine {
  prefix?: string;
  exact?: string;
  startsWith?: string;
  payload?: string;
}
interface Classification {
  firstLineStartsWith?: string;
  firstLineEquals?: string;
  otherwise?: string;
  kind?: FrameKind;
}

export interface SseSpec {
  blockTerminator: string;
  lineSeparator: string;
  frames: Map<FrameKind, FrameLine[]>;
  classification: Classification[];
  doneSentinel?: string;
}

export function loadSseSpec(root: string, protocol: string): SseSpec | undefined {
  // Through the loader's guard (no link out of spec/, the size and depth limits), as every spec read.
  const read = readSpecFile(root, `spec/${protocol}/protocol.yaml`);
  if (!read.ok) throw new KitFailure("internal-error", read.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`).join("; "));
  const doc = read.spec.value as Record<string, unknown>;
  const x = doc["x-sse"] as
    | { blockTerminator: string; lineSeparator: string; frames: { kind: FrameKind; lines: FrameLine[] }[]; classification: Classification[] }
    | undefined;
  if (!x) return undefined;
  const constants = (doc["constants"] as { group: string; items: { name: string; value: unknown }[] }[] | undefined) ?? [];
  const done = constants.find((g) => g.group === "sseFields")?.items.find((i) => i.name === "DONE_SENTINEL")?.value;
  return {
    blockTerminator: x.blockTerminator,
    lineSeparator: x.lineSeparator,
    frames: new Map(x.frames.map((f) => [f.kind, f.lines])),
    classification: x.classification,
    doneSentinel: typeof done === "string" ? done : undefined,
  };
}

export type ParseMessage = (name: string, text: string) => { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Incremental block splitter: push text, get the complete frames; `rest` is an unterminated tail.
 * The tail it keeps between pushes never exceeds `maxEventBytes` (UTF-8): a block that would grow
 * past it sets `tooLarge` and is dropped, so an endless unterminated block costs bounded memory.
 * Each push scans only the new text (plus the seam with the kept tail), so a trickle of small
 * chunks stays linear.
 */
export class SseReader {
  // The unterminated tail, kept as pieces: appending to one string and then slicing it would
  // flatten the whole tail on every push (quadratic for a long block in small chunks).
  private parts: string[] = [];
  private pendingBytes = 0;
  readonly frames: Frame[] = [];
  readonly problems: string[] = [];
  /** Set once a block outgrew the cap; the reader then ignores further input. */
  tooLarge = false;
  /** The most UTF-8 bytes of unterminated block kept between pushes. */
  peakPendingBytes = 0;

  constructor(
    private readonly spec: SseSpec,
    private readonly parseMessage: ParseMessage,
    readonly maxEventBytes: number = 4 * 1024 * 1024,
  ) {}

  push(text: string): Frame[] {
    if (this.tooLarge || text === "") return [];
    const term = this.spec.blockTerminator;
    let seam = "";
    for (let i = this.parts.length - 1; i >= 0 && seam.length < term.length - 1; i--) seam = this.parts[i]! + seam;
    seam = seam.slice(Math.max(0, seam.length - (term.length - 1)));
    const textBytes = Buffer.byteLength(text, "utf8");
    if ((seam + text).indexOf(term) < 0) {
      // Still inside one block: refuse to hold it past the cap.
      if (this.pendingBytes + textBytes > this.maxEventBytes) return this.overflow();
      this.parts.push(text);
      this.pendingBytes += textBytes;
      this.peakPendingBytes = Math.max(this.peakPendingBytes, this.pendingBytes);
      return [];
    }
    // A block ends in this chunk: join once (the kept tail is within the cap), then split.
    const buffer = this.parts.join("") + text;
    const out: Frame[] = [];
    let start = 0;
    let at = buffer.indexOf(term, Math.max(0, buffer.length - text.length - seam.length));
    while (at >= 0) {
      const block = buffer.slice(start, at);
      start = at + term.length;
      if (block.length > this.maxEventBytes || Buffer.byteLength(block, "utf8") > this.maxEventBytes) return this.overflow();
      const frame = this.block(block);
      if (frame) {
        this.frames.push(frame);
        out.push(frame);
      }
      at = buffer.indexOf(term, start);
    }
    // The terminator ended inside `text`, so the tail is a suffix of it: measuring costs O(chunk).
    const tail = buffer.slice(start);
    this.parts = tail === "" ? [] : [tail];
    this.pendingBytes = Buffer.byteLength(tail, "utf8");
    if (this.pendingBytes > this.maxEventBytes) return this.overflow();
    this.peakPendingBytes = Math.max(this.peakPendingBytes, this.pendingBytes);
    return out;
  }

  private overflow(): Frame[] {
    this.tooLarge = true;
    this.parts = [];
    this.pendingBytes = 0;
    return [];
  }

  /** An unterminated final block (discarded by consumers; reported by the kit). */
  get rest(): string {
    return this.parts.join("");
  }

  private block(block: string): Frame | undefined {
    // Classified by the first line before anything is split: a stream of comments costs little.
    const nl = block.indexOf(this.spec.lineSeparator);
    const first = nl < 0 ? block : block.slice(0, nl);
    if (block.trim() === "") return undefined;
    let kind: FrameKind | undefined;
    for (const c of this.spec.classification) {
      if (c.firstLineStartsWith !== undefined && first.startsWith(c.firstLineStartsWith)) kind = c.kind;
      else if (c.firstLineEquals !== undefined && first === c.firstLineEquals) kind = c.kind;
      else continue;
      break;
    }
    if (!kind) return undefined; // comments, blank blocks and unknown fields are ignored
    const lines = block.split(this.spec.lineSeparator);
    const shape = this.spec.frames.get(kind) ?? [];
    const index = shape.findIndex((l) => l.payload !== undefined);
    const lineShape = shape[index];
    const line = lines[index];
    if (!lineShape || line === undefined) {
      this.problems.push(`a ${kind} block has no payload line: ${JSON.stringify(block.slice(0, 120))}`);
      return undefined;
    }
    for (let i = 0; i < shape.length; i++) {
      const s = shape[i]!;
      if (s.exact !== undefined && lines[i] !== s.exact) this.problems.push(`a ${kind} block's line ${i + 1} is not ${JSON.stringify(s.exact)}`);
      if (s.prefix !== undefined && !(lines[i] ?? "").startsWith(s.prefix)) this.problems.push(`a ${kind} block's line ${i + 1} does not start with ${JSON.stringify(s.prefix)}`);
    }
    if (lines.length > shape.length) this.problems.push(`a ${kind} block has ${lines.length} lines, expected ${shape.length}`);
    const text = line.slice((lineShape.prefix ?? "").length);
    if (kind === "answer" && this.spec.doneSentinel !== undefined && text === this.spec.doneSentinel) return undefined;
    const message = lineShape.payload!;
    const parsed = this.parseMessage(message, text);
    if (!parsed.ok) {
      this.problems.push(`a ${kind} frame is not a valid ${message}: ${parsed.error} in ${JSON.stringify(text.slice(0, 160))}`);
      return undefined;
    }
    return { kind, message, payload: parsed.value as Json, raw: block };
  }
}
