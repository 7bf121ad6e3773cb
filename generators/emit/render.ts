// The one Handlebars renderer the targets and the docs site share: compile each template once,
// render with a context. Code targets read `<name>.hbs` from their own folder (templates are
// generator code, like their .ts files); the docs site passes its templates in as text.
import Handlebars from "handlebars";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface RendererOptions {
  /**
   * HTML-escape `{{value}}` (Handlebars' default, for the docs site). Code targets turn it off and
   * quote values with their own string-literal function.
   */
  htmlEscape: boolean;
  /** A missing context key throws (code targets) or renders empty (the docs site's optional fields). */
  strict?: boolean;
  partials?: Readonly<Record<string, string>>;
  helpers?: Readonly<Record<string, Handlebars.HelperDelegate>>;
}

export type Render = (name: string, context: object) => string;

/** A renderer over template sources found by name; each gets its own Handlebars environment. */
export function templateRenderer(source: (name: string) => string, options: RendererOptions): Render {
  const env = Handlebars.create();
  for (const [name, text] of Object.entries(options.partials ?? {})) env.registerPartial(name, text);
  for (const [name, helper] of Object.entries(options.helpers ?? {})) env.registerHelper(name, helper);
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  return (name, context) => {
    let template = compiled.get(name);
    if (template === undefined) {
      template = env.compile(source(name), { noEscape: !options.htmlEscape, strict: options.strict ?? true });
      compiled.set(name, template);
    }
    return template(context);
  };
}

/** Templates as `<folder>/<name>.hbs`, e.g. `templateFolder(new URL("./templates/", import.meta.url))`. */
export function templateFolder(folder: URL): (name: string) => string {
  return (name) => readFileSync(fileURLToPath(new URL(`${name}.hbs`, folder)), "utf8");
}

/** Marks already-escaped HTML so the docs templates insert it as is. */
export function safeHtml(html: string): Handlebars.SafeString {
  return new Handlebars.SafeString(html);
}
