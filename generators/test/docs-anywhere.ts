// Issue 17, `docs` from a global install of the packed tarball (the install cli-anywhere.test.ts
// makes once: packing is slow), run from an unrelated folder on a user's own spec project.
// - A bare project (the repository's spec/ copied, nothing generated): the site's facts checked
//   against the spec files read directly (docs-site-facts.ts), and stderr names each part left
//   out, from a hand-written list of what such a project lacks.
// - A project with what a checkout has (spec/, generated/, docs-site/guides and bench): the site
//   this checkout builds, byte for byte, except the spec changelog (the copy has no git history).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { brokenLinks, h1Of, siteFiles, specProtocols, svgTitles } from "./docs-site-facts.js";
import { parse as parseYaml } from "yaml";
import { REPO_ROOT } from "./fixture.js";

/** spec/project.yaml's version: the one the guides must show. */
const VERSION = (parseYaml(readFileSync(join(REPO_ROOT, "spec/project.yaml"), "utf8")) as { project: { version: string } }).project.version;

interface Install {
  /** The --prefix of `npm install -g`. */
  prefix: string;
  /** A scratch folder the caller removes. */
  work: string;
  /** The unrelated folder commands run from. */
  elsewhere: string;
}

/** A docs build can take a minute on a loaded machine: a longer limit than the other commands'. */
function docs(install: Install, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(join(install.prefix, "bin", "agent-contracts"), ["docs", ...args], { cwd: install.elsewhere, encoding: "utf8", timeout: 400_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export function docsFromTheInstall(setup: () => Install): void {
  it("docs --spec builds a bare project's site from an unrelated folder: every protocol, message and lifecycle, SVG diagrams, no broken link; each part left out named on stderr", () => {
    const install = setup();
    const project = join(install.work, "docs-bare-project");
    cpSync(join(REPO_ROOT, "spec"), join(project, "spec"), { recursive: true, filter: (src) => !src.endsWith(".paths.json") });
    const r = docs(install, ["--spec", join(project, "spec"), "--out", "site-bare"]);
    const site = join(install.elsewhere, "site-bare");
    expect({ code: r.code, out: r.out.startsWith(`docs: `) && r.out.includes(` files and 0 API reference files in ${site} (`) }, r.err).toEqual({ code: 0, out: true });
    // What a project with only a spec lacks, in the order the build meets it.
    const expectedNotices = [
      `docs: left out: the API reference (api/): ${project}/generated/ts has no index.d.ts; run \`agent-contracts generate\` in the project first`,
      `docs: left out: the Performance page (performance.html): ${project}/docs-site/bench has none of latest.md, kotlin.md, swift.md, rust.md (\`make bench\` writes them in a checkout of agent-contracts)`,
      `docs: left out: the Compatibility page (guides/compatibility.html): ${project}/docs-site/compatibility has no *.json conformance result file (\`agent-contracts conformance <protocol> --url URL --report FILE\` writes one)`,
      `docs: left out: the bindings' own error messages on the message pages (each invalid example shows its expected error only): ${project}/generated/ts/index.js is missing; run \`agent-contracts generate\` in the project first`,
      `docs: left out: the playground pages (<protocol>/playground.html): ${project}/generated/ts is missing; run \`agent-contracts generate\` in the project first`,
    ];
    const lines = r.err.trimEnd().split("\n");
    expect(lines.slice(0, -1)).toEqual(expectedNotices);
    expect(lines.at(-1)).toMatch(new RegExp(`^docs: left out: the entries of the spec changelog \\(spec-changelog.html says why\\): git history is not available here `));
    expect(readdirSync(project)).toEqual(["spec"]); // the project is read, not written

    const files = siteFiles(site);
    const page = (path: string) => readFileSync(join(site, path), "utf8");
    expect(files).toContain("index.html");
    expect(files.filter((f) => f.startsWith("api/") || f === "performance.html")).toEqual([]);
    // The guides the CLI ships (issue 34): a project without its own gets the CLI's, with its own version in them.
    const shipped = readdirSync(join(REPO_ROOT, "docs-site/guides")).filter((f) => f.endsWith(".md")).map((f) => `guides/${f.replace(/\.md$/, ".html")}`).sort();
    expect(shipped.length).toBeGreaterThan(3);
    expect(files.filter((f) => f.startsWith("guides/")).sort()).toEqual(shipped);
    expect(page("guides/kotlin.html")).toContain(`&lt;version&gt;${VERSION}&lt;/version&gt;`);
    const protocols = specProtocols(join(project, "spec"));
    expect(protocols.map((p) => p.id)).toEqual(["agent-connector", "agent-provider", "agent-service", "provider-integration"]);
    for (const p of protocols) {
      expect(page("index.html"), p.id).toContain(`href="${p.id}/index.html"`);
      const protocolPage = page(`${p.id}/index.html`);
      expect(h1Of(protocolPage)).toBe(p.title);
      for (const title of p.messages) {
        expect(protocolPage, `${p.id} links ${title}`).toContain(`href="../${p.id}/messages/${title}.html"`);
        expect(h1Of(page(`${p.id}/messages/${title}.html`)), `${p.id}/${title}`).toBe(title);
      }
      for (const l of p.lifecycles) {
        const html = page(`${p.id}/lifecycles/${l.name}.html`);
        expect(h1Of(html)).toBe(l.title);
        const svgs = svgTitles(html);
        expect(svgs.length, `${p.id}/${l.name} has one SVG diagram`).toBe(1);
        expect(l.states.filter((s) => !svgs[0]!.includes(s)), `${p.id}/${l.name}: states without a node`).toEqual([]);
      }
    }
    expect(brokenLinks(site)).toEqual([]);
  }, 420_000);

  it("docs for a project with generated/ and docs-site/guides and bench builds the site this checkout builds, byte for byte (the spec changelog aside)", () => {
    const install = setup();
    const project = join(install.work, "docs-full-project");
    mkdirSync(join(project, "docs-site"), { recursive: true });
    cpSync(join(REPO_ROOT, "spec"), join(project, "spec"), { recursive: true });
    // The recorded releases: the changelog page is made from them, as the checkout's is.
    cpSync(join(REPO_ROOT, "releases.json"), join(project, "releases.json"));
    cpSync(join(REPO_ROOT, "releases"), join(project, "releases"), { recursive: true });
    // generated/ as this checkout has it: the generate test above proves the install writes the same bytes.
    cpSync(join(REPO_ROOT, "generated"), join(project, "generated"), { recursive: true });
    for (const dir of ["guides", "bench"]) cpSync(join(REPO_ROOT, "docs-site", dir), join(project, "docs-site", dir), { recursive: true });
    // The bindings' dependencies (ajv, ajv-formats) where the project sits, as a user of them installs them.
    symlinkSync(join(install.prefix, "lib", "node_modules", "agent-contracts", "node_modules"), join(project, "node_modules"));

    const checkoutSite = join(install.work, "checkout-site");
    const here = spawnSync(process.execPath, [join(REPO_ROOT, "bin/agent-contracts.mjs"), "docs", "--out", checkoutSite], { cwd: REPO_ROOT, encoding: "utf8", timeout: 400_000 });
    expect(here.status, here.stderr).toBe(0);
    const r = docs(install, ["--spec", project, "--out", "site-full"]);
    expect(r.code, r.err).toBe(0);
    // This checkout has no conformance result files either (docs-site/compatibility/).
    expect(r.err).toMatch(/^docs: left out: the Compatibility page \(guides\/compatibility.html\): [^\n]*\ndocs: left out: the entries of the spec changelog \(spec-changelog.html says why\): git history is not available here [^\n]*\n$/);
    const site = join(install.elsewhere, "site-full");
    expect(existsSync(join(site, "api", "index.html"))).toBe(true);
    const files = siteFiles(site);
    expect(files).toEqual(siteFiles(checkoutSite));
    expect(files.filter((f) => f !== "spec-changelog.html" && !readFileSync(join(site, f)).equals(readFileSync(join(checkoutSite, f))))).toEqual([]);
    expect(readFileSync(join(site, "spec-changelog.html"), "utf8")).toContain("git history is not available here");
  }, 840_000);
}
