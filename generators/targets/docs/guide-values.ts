// Values of spec/project.yaml written into the hand-written guides (docs-site/guides/*.md) when the
// site is built, so a version bump never leaves a guide naming the old version (issue 39). A guide
// writes `{{project.version}}`; a placeholder that names nothing is an error, never left as text.
import type { ProjectIdentity } from "../../model/types.js";

export function guideValues(p: ProjectIdentity): Record<string, string> {
  return {
    "project.name": p.name,
    "project.version": p.version,
    "packages.npm": p.packages.npm,
    "packages.maven.groupId": p.packages.maven.groupId,
    "packages.maven.artifactId": p.packages.maven.artifactId,
    "packages.swift.package": p.packages.swift.package,
    "packages.swift.module": p.packages.swift.module,
  };
}

/** The guide with each `{{name}}` replaced by its value; `where` names the guide in the error. */
export function fillGuide(markdown: string, project: ProjectIdentity, where: string): string {
  const values = guideValues(project);
  return markdown.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${where}: {{${name}}} names no value of spec/project.yaml (known: ${Object.keys(values).join(", ")})`);
    return v;
  });
}
