// What every package ships about the spec it was made from (issues 35 and 39): CHANGELOG.md (per
// version, per protocol: breaking, added, changed, removed; generators/breaking/changelog.ts) and
// spec-bundle.json (the spec files `agent-contracts breaking --against <package>` compares with).
// Into the npm package's root, the Kotlin jar's package folder (beside schemas/) and the Swift
// package's root; the docs site renders the same changelog.
import { bundleOf, BUNDLE_FILE, jarBundlePath, serializeBundle } from "../../breaking/bundle.js";
import { ChangelogError, changelogMarkdown, specChangelogFromReleases } from "../../breaking/changelog.js";
import { ReleaseError, RELEASES_FILE } from "../../breaking/release.mjs";
import { TargetInputError } from "../input-error.js";
import { loadTree } from "../../breaking/tree.js";
import { projectVersion } from "../../breaking/version.js";
import { defineTarget, notJson } from "../target.js";

/** The folders, under generated/, of the packages that carry the files (the TS, Kotlin and Swift targets' outDirs; the jar's resources in the project's package folder). */
export const packageFolders = (mavenPackage: string): string[] => ["ts", `kotlin/src/main/resources/${jarBundlePath(mavenPackage).slice(0, -BUNDLE_FILE.length - 1)}`, "swift"];

export const releaseTarget = defineTarget({
  id: "release",
  summary: "CHANGELOG.md and the spec bundle in every package (npm root, Kotlin jar beside the schemas, Swift package root)",
  outDir: "generated",
  owns: [],
  header: notJson,
  inputs: (root) => {
    const tree = loadTree(root);
    let changelog: string;
    try {
      changelog = changelogMarkdown(specChangelogFromReleases(root, tree));
    } catch (error) {
      // releases.json or a release's bundle is wrong: the project's files, reported at their place.
      if (error instanceof ChangelogError || error instanceof ReleaseError) {
        const file = error instanceof ChangelogError ? error.file : RELEASES_FILE;
        throw new TargetInputError([{ file, line: 1, column: 1, pointer: "", message: error.message.replace(/^[^:]+: /, ""), lint: "releases" }]);
      }
      throw error;
    }
    return { changelog, bundle: serializeBundle(bundleOf(root, projectVersion(tree))) };
  },
  emit: (model, inputs) =>
    packageFolders(model.project.packages.maven.package).flatMap((dir) => [
      { path: `${dir}/CHANGELOG.md`, contents: inputs.changelog, sources: ["releases.json", "spec"] },
      { path: `${dir}/${BUNDLE_FILE}`, contents: inputs.bundle, sources: ["spec"] },
    ]),
});
