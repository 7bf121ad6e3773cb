// The bindings outside Node: the consumer (src/run-vectors.ts, importing only the package's public
// entry points) is bundled by esbuild for the browser and run in Debian's Chromium (headless, never
// a downloaded browser), and the same consumer bundled for Node runs here; both must give exactly
// the answers the spec's vectors, lifecycle paths and examples state (vectors.ts reads them).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle, type Bundled } from "./bundle.js";
import type { Answer, VectorInput } from "./src/run-vectors.js";
import { bySuite, readVectors, type Vectors } from "./vectors.js";

const CHROMIUM = "/usr/bin/chromium";
const ENTRY = join(import.meta.dirname, "src/run-vectors.ts");

let vectors: Vectors;
let browserBundle: Bundled;
let browserAnswers: Answer[] = [];
let nodeAnswers: Answer[] = [];
const pageErrors: string[] = [];
let context: BrowserContext | undefined;
let temp = "";

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: the browser consumer needs the Debian chromium package (apt-get install -y chromium; make test installs it)`);
  vectors = readVectors();
  temp = mkdtempSync(join(tmpdir(), "browser-consumer-"));
  browserBundle = await bundle({ entry: ENTRY }, { platform: "browser", format: "iife", globalName: "bindingsConsumer", minify: true });
  context = await chromium.launchPersistentContext(join(temp, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.setContent("<!doctype html><meta charset=utf-8><title>bindings consumer</title>");
  await page.addScriptTag({ content: browserBundle.code });
  browserAnswers = await page.evaluate((input: VectorInput) => (globalThis as unknown as { bindingsConsumer: { runVectors(i: VectorInput): Answer[] } }).bindingsConsumer.runVectors(input), vectors.input);
  const nodeBundle = await bundle({ entry: ENTRY }, { platform: "node", format: "esm", minify: false });
  const nodeFile = join(temp, "run-vectors.mjs");
  writeFileSync(nodeFile, nodeBundle.code);
  const loaded = (await import(pathToFileURL(nodeFile).href)) as { runVectors(i: VectorInput): Answer[] };
  nodeAnswers = loaded.runVectors(vectors.input);
}, 180_000);

afterAll(async () => {
  await context?.close();
  if (temp !== "") rmSync(temp, { recursive: true, force: true });
});

describe("the package in Chromium, bundled by esbuild for the browser", () => {
  it("bundles with no Node built-in and none of the Node-only stores", () => {
    // The bundle plugin turns any node: import into an error; the stores must not be reachable.
    expect(browserBundle.inputs.filter((path) => /replay-(sqlite|redis|postgres)|node-only/.test(path))).toEqual([]);
    expect(browserBundle.code).not.toMatch(/\brequire\(["']node:|createRequire/);
  });
  it("runs without a page error", () => {
    expect(pageErrors).toEqual([]);
    expect(browserAnswers.length).toBe(vectors.expected.length);
  });
  it("gives every vector's, lifecycle path's and example's expected answer", () => {
    const expected = bySuite(vectors.expected);
    const actual = bySuite(browserAnswers);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const suite of Object.keys(expected)) expect(actual[suite], suite).toEqual(expected[suite]);
  });
  it("covers every kind of vector: parse, canonicalize, sign, verify, content ids, tokens, lifecycles", () => {
    const suites = new Set(browserAnswers.map((a) => a.suite.split(" ")[0]));
    expect([...suites].sort()).toEqual(["approval-token", "content-ids", "examples", "hmac-sha256-v1", "jcs", "lifecycle", "strict-json"]);
    // At least one refusal of each kind the files hold, so a binding that accepts everything fails.
    expect(browserAnswers.filter((a) => a.suite === "hmac-sha256-v1" && (a.actual as { verdict: string }).verdict !== "valid").length).toBeGreaterThan(3);
    expect(browserAnswers.filter((a) => a.suite === "strict-json" && a.actual !== "valid").length).toBeGreaterThan(10);
  });
});

describe("the same consumer bundled for Node", () => {
  it("gives the same expected answers", () => {
    const expected = bySuite(vectors.expected);
    const actual = bySuite(nodeAnswers);
    for (const suite of Object.keys(expected)) expect(actual[suite], suite).toEqual(expected[suite]);
  });
});
