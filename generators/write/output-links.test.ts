// Issue 31: the writer never follows a symbolic link. Scratch projects with the two links of the
// hostile review (a directory link and a file link inside an owned folder) and a link on the way to
// an output; the expectations are hand-written: the links named, nothing outside the project
// changed, nothing inside it written or removed.
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertInsideRoot, OutputLinkError, OutsideOutputRootError, refuseOutputLinks, walkOwned } from "./output-links.js";
import { checkDrift, renderAll, writeAll, type PlacedFile } from "./write-outputs.js";

const file = (path: string, contents: string): PlacedFile => ({ path, contents, sources: [], comment: { open: "//" } });

describe("links where generation writes", () => {
  let scratch: string;
  let root: string;
  let outside: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "output-links-"));
    root = join(scratch, "project");
    outside = join(scratch, "outside");
    mkdirSync(join(root, "generated/t"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, "precious.txt"), "keep me");
    writeFileSync(join(outside, "bashrc"), "alias ls=ls");
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const outsideUnchanged = () => {
    expect(readdirSync(outside).sort()).toEqual(["bashrc", "precious.txt"]);
    expect(readFileSync(join(outside, "precious.txt"), "utf8")).toBe("keep me");
    expect(readFileSync(join(outside, "bashrc"), "utf8")).toBe("alias ls=ls");
  };

  it("a directory link and a file link inside an owned folder: both named, nothing written, removed or changed outside", () => {
    symlinkSync(outside, join(root, "generated/t/evil"));
    symlinkSync(join(outside, "bashrc"), join(root, "generated/t/README.md"));
    writeFileSync(join(root, "generated/t/old.js"), "an orphan");
    const rendered = renderAll([file("generated/t/README.md", "# hi\n"), file("generated/t/a.js", "A")], {}, "g");
    let error: unknown;
    try {
      writeAll(root, rendered, ["generated/t"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputLinkError);
    expect((error as OutputLinkError).links).toEqual([
      { path: "generated/t/README.md", target: join(outside, "bashrc") },
      { path: "generated/t/evil", target: outside },
    ]);
    expect((error as OutputLinkError).lines()[1]).toBe(`generated/t/evil: symbolic link to ${outside}: generation never writes through or removes into a link; remove it [output-link]`);
    outsideUnchanged();
    expect(existsSync(join(root, "generated/t/a.js"))).toBe(false);
    expect(existsSync(join(root, "generated/manifest.json"))).toBe(false);
    expect(readFileSync(join(root, "generated/t/old.js"), "utf8")).toBe("an orphan");
    // --check reads nothing through them either.
    expect(() => checkDrift(root, rendered, ["generated/t"])).toThrow(OutputLinkError);
  });

  it("a link on the way to an output outside the owned folders (generated/ itself, a paths suite) is refused", () => {
    rmSync(join(root, "generated"), { recursive: true });
    symlinkSync(outside, join(root, "generated"));
    mkdirSync(join(root, "spec/p/lifecycles"), { recursive: true });
    symlinkSync(join(outside, "precious.txt"), join(root, "spec/p/lifecycles/door.paths.json"));
    const rendered = renderAll([{ ...file("spec/p/lifecycles/door.paths.json", "{}"), comment: undefined }], {}, "g");
    expect(() => writeAll(root, rendered, [])).toThrow(/generated -> .*outside, spec\/p\/lifecycles\/door\.paths\.json -> .*precious\.txt$/);
    outsideUnchanged();
  });

  it("the sweep never descends into a link and lists the files beside it", () => {
    writeFileSync(join(root, "generated/t/a.js"), "A");
    mkdirSync(join(root, "generated/t/node_modules/.bin"), { recursive: true });
    symlinkSync(outside, join(root, "generated/t/node_modules/.bin/tool")); // a build tool's folder: not looked into
    symlinkSync(outside, join(root, "generated/t/evil"));
    expect(walkOwned(root, ["generated/t", "generated/missing"])).toEqual({ files: ["generated/t/a.js"], links: [{ path: "generated/t/evil", target: outside }] });
    rmSync(join(root, "generated/t/evil"));
    expect(refuseOutputLinks(root, ["generated/t/a.js"], ["generated/t"])).toEqual({ files: ["generated/t/a.js"] });
  });

  it("a dangling link is a link too", () => {
    symlinkSync(join(outside, "not-yet"), join(root, "generated/t/a.js"));
    expect(() => writeAll(root, renderAll([file("generated/t/a.js", "A")], {}, "g"), ["generated/t"])).toThrow(OutputLinkError);
    expect(existsSync(join(outside, "not-yet"))).toBe(false);
  });

  it("assertInsideRoot: a path resolving outside the root (through a link that appeared later) is refused", () => {
    expect(() => assertInsideRoot(root, "generated/t/new/deeper/a.js")).not.toThrow();
    symlinkSync(outside, join(root, "generated/t/late"));
    expect(() => assertInsideRoot(root, "generated/t/late/a.js")).toThrow(OutsideOutputRootError);
    expect(() => assertInsideRoot(root, "generated/t/late")).toThrow(`generated/t/late: resolves to ${outside}, outside the output folder`);
    expect(() => assertInsideRoot(root, "../outside/bashrc")).toThrow(OutsideOutputRootError);
  });

  it("a changed output is replaced, not written through: a hard link elsewhere keeps its bytes", () => {
    writeFileSync(join(root, "generated/t/a.js"), "old");
    const hard = join(scratch, "hard-copy");
    // A hard link shares the file: writing in place would change both names.
    rmSync(hard, { force: true });
    linkSync(join(root, "generated/t/a.js"), hard);
    writeAll(root, renderAll([file("generated/t/a.js", "A")], {}, "g"), ["generated/t"]);
    expect(readFileSync(hard, "utf8")).toBe("old");
    expect(readFileSync(join(root, "generated/t/a.js"), "utf8")).toMatch(/\nA$/);
  });
});
