// The lifecycle loader's output, field by field, and each lint's reference check on its own: small
// machines written here by hand (line numbers counted by hand in the text below), loaded from a
// temporary folder the way loadLifecycles reads a protocol. load.test.ts proves each lint trips on a
// fixture; this file proves the IR every target reads (the states, events, guards, effects, `from`
// lists, guard literals and positions) and where each reference error points.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { lifecycleName, loadLifecycles, type LoadLifecyclesResult } from "./load.js";

const FILE = "spec/demo/lifecycles/door.machine.yaml";

function load(text: string, options: { messageNames?: Set<string>; extraFiles?: Record<string, string> } = {}): LoadLifecyclesResult {
  const root = mkdtempSync(`${tmpdir()}/agent-contracts-lifecycle-ir-`);
  mkdirSync(`${root}/spec/demo/lifecycles`, { recursive: true });
  writeFileSync(`${root}/${FILE}`, text);
  for (const [name, body] of Object.entries(options.extraFiles ?? {})) writeFileSync(`${root}/spec/demo/lifecycles/${name}`, body);
  return loadLifecycles(root, "demo", options.messageNames ? { messageNames: options.messageNames } : {});
}

// Line numbers are the text's own (1-based); each entry's column is where its key starts.
const DOOR = [
  "name: door", // 1
  "title: Door", // 2
  "description: A door with a lock.", // 3
  "role: keeper", // 4
  "x-source:", // 5
  "  - { document: notes.md, section: Door }", // 6
  "x-divergences:", // 7
  "  - { id: slam, summary: Slams., rule: Refuse., implementations: [{ name: a, behaviour: b }] }", // 8
  "initial: closed", // 9
  "states:", // 10
  "  closed: { description: Closed., terminal: false }", // 11
  "  open: { description: Open., terminal: false, longLived: true }", // 12
  "  broken: { description: Broken., terminal: true }", // 13
  "events:", // 14
  "  push: { description: Push., message: DoorPush }", // 15
  "  kick: { description: Kick. }", // 16
  "guards:", // 17
  "  strong: { description: Strong. }", // 18
  "  weak: { description: Weak. }", // 19
  "mutuallyExclusive:", // 20
  "  - [strong, weak]", // 21
  "effects:", // 22
  "  log: { description: Log. }", // 23
  "transitions:", // 24
  "  - { from: closed, event: push, to: open, description: Opens. }", // 25
  "  - { from: open, event: push, to: closed }", // 26
  "  - from: [closed, open]", // 27
  "    event: kick", // 28
  "    to: broken", // 29
  "    guard: [strong, not weak]", // 30
  "    effects: [log]", // 31
  "  - { from: closed, event: kick, to: closed, guard: weak }", // 32
  "",
].join("\n");

const at = (pointer: string, line: number, column: number) => ({ file: FILE, pointer, line, column });

describe("the IR of a machine", () => {
  it("carries every declared field, in file order, with its position", () => {
    const { lifecycles, errors } = load(DOOR, { messageNames: new Set(["DoorPush"]) });
    expect(errors).toEqual([]);
    expect(lifecycles).toHaveLength(1);
    const door = lifecycles[0]!;
    expect(door).toMatchObject({ kind: "lifecycle", protocol: "demo", name: "door", title: "Door", description: "A door with a lock.", role: "keeper", initial: "closed" });
    expect(door.location).toEqual(at("", 1, 1));
    expect(door.sources).toEqual([{ document: "notes.md", section: "Door" }]);
    expect(door.divergences).toEqual([{ id: "slam", summary: "Slams.", rule: "Refuse.", implementations: [{ name: "a", behaviour: "b" }] }]);
    expect(door.states).toEqual([
      { name: "closed", description: "Closed.", terminal: false, longLived: false, location: at("/states/closed", 11, 3) },
      { name: "open", description: "Open.", terminal: false, longLived: true, location: at("/states/open", 12, 3) },
      { name: "broken", description: "Broken.", terminal: true, longLived: false, location: at("/states/broken", 13, 3) },
    ]);
    expect(door.events).toEqual([
      { name: "push", description: "Push.", message: "DoorPush", location: at("/events/push", 15, 3) },
      { name: "kick", description: "Kick.", location: at("/events/kick", 16, 3) },
    ]);
    expect(door.guards).toEqual([
      { name: "strong", description: "Strong.", location: at("/guards/strong", 18, 3) },
      { name: "weak", description: "Weak.", location: at("/guards/weak", 19, 3) },
    ]);
    expect(door.effects).toEqual([{ name: "log", description: "Log.", location: at("/effects/log", 23, 3) }]);
    expect(door.mutuallyExclusive).toEqual([["strong", "weak"]]);
    const strongNotWeak = [{ guard: "strong", negated: false }, { guard: "weak", negated: true }];
    expect(door.transitions).toEqual([
      { from: "closed", event: "push", to: "open", guards: [], effects: [], description: "Opens.", location: at("/transitions/0", 25, 5) },
      { from: "open", event: "push", to: "closed", guards: [], effects: [], location: at("/transitions/1", 26, 5) },
      // A `from` list gives one transition per state, each at its own entry of the list.
      { from: "closed", event: "kick", to: "broken", guards: strongNotWeak, effects: ["log"], location: at("/transitions/2/from/0", 27, 12) },
      { from: "open", event: "kick", to: "broken", guards: strongNotWeak, effects: ["log"], location: at("/transitions/2/from/1", 27, 20) },
      { from: "closed", event: "kick", to: "closed", guards: [{ guard: "weak", negated: false }], effects: [], location: at("/transitions/3", 32, 5) },
    ]);
  });

  it("a machine without guards, effects or mutuallyExclusive has empty lists, not missing ones", () => {
    const text = ["name: door", "title: T", "description: D.", "role: r", "initial: a", "states:", "  a: { description: A., terminal: false }", "  b: { description: B., terminal: true }", "events:", "  go: { description: Go. }", "transitions:", "  - { from: a, event: go, to: b }", ""].join("\n");
    const door = load(text).lifecycles[0]!;
    expect([door.guards, door.effects, door.mutuallyExclusive, door.divergences, door.sources]).toEqual([[], [], [], [], []]);
    expect(door.transitions).toEqual([{ from: "a", event: "go", to: "b", guards: [], effects: [], location: at("/transitions/0", 12, 5) }]);
  });

  it("lifecycleName is the file name without .machine.yaml", () => {
    expect(lifecycleName("spec/p/lifecycles/proposal-record.machine.yaml")).toBe("proposal-record");
    expect(lifecycleName("door.machine.yaml")).toBe("door");
  });
});

// Each reference lint on its own, on the door above with one line replaced: the error's pointer and
// line are where the bad name is written.
const edit = (line: number, text: string): string => DOOR.split("\n").map((l, i) => (i === line - 1 ? text : l)).join("\n");

describe("reference lints point at the name that does not resolve", () => {
  const cases: [what: string, text: string, pointer: string, line: number, message: string][] = [
    ["initial state", edit(9, "initial: ajar"), "/initial", 9, 'initial state "ajar" is not declared in states'],
    ["a mutuallyExclusive member", edit(21, "  - [strong, mighty]"), "/mutuallyExclusive/0/1", 21, 'guard "mighty" is not declared in guards'],
    ["a single from", edit(26, "  - { from: ajar, event: push, to: closed }"), "/transitions/1/from", 26, 'state "ajar" is not declared in states'],
    ["a from list entry", edit(27, "  - from: [closed, ajar]"), "/transitions/2/from/1", 27, 'state "ajar" is not declared in states'],
    ["to", edit(29, "    to: gone"), "/transitions/2/to", 29, 'state "gone" is not declared in states'],
    ["event", edit(28, "    event: slam"), "/transitions/2/event", 28, 'event "slam" is not declared in events'],
    ["a guard list entry", edit(30, "    guard: [strong, not mighty]"), "/transitions/2/guard/1", 30, 'guard "mighty" is not declared in guards'],
    ["a single guard", edit(32, "  - { from: closed, event: kick, to: closed, guard: mighty }"), "/transitions/3/guard", 32, 'guard "mighty" is not declared in guards'],
    ["a guard twice in one transition", edit(30, "    guard: [strong, not strong]"), "/transitions/2/guard/1", 30, 'guard "strong" appears twice in one transition'],
    ["an effect", edit(31, "    effects: [log, ring]"), "/transitions/2/effects/1", 31, 'effect "ring" is not declared in effects'],
  ];
  it.each(cases)("%s", (_what, text, pointer, line, message) => {
    const result = load(text, { messageNames: new Set(["DoorPush"]) });
    expect(result.lifecycles).toEqual([]);
    expect(result.errors.map((e) => [e.lint, e.pointer, e.line, e.message])).toEqual([["lifecycle-ref", pointer, line, message]]);
  });

  it("message-ref only when message names are given, and only for a name not among them", () => {
    expect(load(DOOR).errors).toEqual([]);
    expect(load(DOOR, { messageNames: new Set(["DoorPush", "Other"]) }).errors).toEqual([]);
    expect(load(DOOR, { messageNames: new Set(["Other"]) }).errors).toEqual([
      { file: FILE, line: 15, column: 31, pointer: "/events/push/message", message: 'message "DoorPush" is not a message of protocol demo', lint: "message-ref" },
    ]);
  });

  it("a reference error stops the graph lints (their input would not resolve)", () => {
    // The unknown `to` also leaves `open` unreachable and `kick` unused, which are not reported.
    const result = load(edit(25, "  - { from: closed, event: push, to: gone }"));
    expect(result.errors.map((e) => e.lint)).toEqual(["lifecycle-ref"]);
  });
});

describe("meta-schema errors name what is wrong", () => {
  it("an enum-like value lists what is allowed; an unknown key is named", () => {
    const unknownKey = load(edit(26, "  - { from: open, event: push, to: closed, when: later }"));
    expect(unknownKey.errors.map((e) => [e.lint, e.pointer, e.message])).toContainEqual(["meta-schema", "/transitions/1", 'must NOT have additional properties: "when"']);
    const wrongType = load(edit(11, "  closed: { description: Closed., terminal: maybe }"));
    expect(wrongType.errors.map((e) => [e.lint, e.pointer, e.message])).toEqual([["meta-schema", "/states/closed/terminal", "must be boolean"]]);
  });
});

describe("the folder", () => {
  it("a paths file beside its machine is expected; a stray file is a file-name error, the machine still loads", () => {
    const result = load(DOOR, { extraFiles: { "door.paths.json": "{}\n", "notes.txt": "x\n" } });
    expect(result.errors).toEqual([
      { file: "spec/demo/lifecycles/notes.txt", line: 1, column: 1, pointer: "", message: "unexpected file: a lifecycles folder holds <name>.machine.yaml and its <name>.paths.json", lint: "file-name" },
    ]);
    expect(result.lifecycles.map((l) => l.name)).toEqual(["door"]);
  });
  it("name must equal the file name", () => {
    const result = load(edit(1, "name: gate"));
    expect(result.errors.map((e) => [e.lint, e.pointer, e.line, e.message])).toEqual([["name-matches-file", "/name", 1, 'name "gate" must equal the file name "door"']]);
  });
});
