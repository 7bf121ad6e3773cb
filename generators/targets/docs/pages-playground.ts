// One playground page per protocol (issue 34): the protocol's generated TS bindings run in the
// reader's browser (playground-bundle.ts builds them; assets/playground.js is the page's code).
// The page carries what the bindings cannot say about themselves: each message's first example
// (the text the editor starts with), which messages are signed, and each lifecycle's export name.
import { safeHtml } from "../../emit/render.js";
import { sitePaths } from "./paths.js";
import { lifecycleExport } from "./playground-bundle.js";
import type { Site } from "./site.js";

export function playgroundPages(site: Site): void {
  const { model, inputs, files, render } = site;
  for (const p of model.protocols) {
    const bundle = inputs.playgrounds[p.id];
    if (bundle === undefined) continue;
    const data = {
      protocol: p.id,
      messages: p.messages.map((m) => ({
        name: m.name,
        signed: m.signature !== undefined,
        example: JSON.stringify(m.examples[0] ?? {}, null, 2),
      })),
      lifecycles: p.lifecycles.map((l) => ({ name: l.name, title: l.title, exportName: lifecycleExport(l.name), machineExport: `${lifecycleExport(l.name)}Machine` })),
    };
    const page = sitePaths.playground(p.id);
    render(
      page,
      "playground",
      `Playground — ${p.title}`,
      [{ label: "Home", path: sitePaths.home }, { label: p.title, path: sitePaths.protocol(p.id) }, { label: "Playground" }],
      // JSON inside <script>: "<" escaped so no text of the spec can close the element.
      { protocolTitle: p.title, protocolHref: sitePaths.protocol(p.id), dataJson: safeHtml(JSON.stringify(data).replace(/</g, "\\u003c")), hasLifecycles: p.lifecycles.length > 0 },
      { scripts: [sitePaths.playgroundScript(p.id), "assets/playground.js"] },
    );
    files.push({ path: sitePaths.playgroundScript(p.id), contents: bundle });
  }
}
