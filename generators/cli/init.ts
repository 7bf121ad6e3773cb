// `agent-contracts init [DIR]`: a minimal spec project that generates as it is (issue 30): the
// project file, the common types, one example protocol with a plain message, an HMAC-signed
// message with replay rules and a lifecycle. The files come from generators/init/template, with
// the project's names filled in from the folder's name. The meta-schemas are not copied: the
// loader takes them from the CLI, and each YAML file's `# yaml-language-server: $schema=` line
// points an editor at the CLI's own copy (spec/meta), so completion and errors follow the CLI.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs, UsageError, type Command } from "./io.js";
import { CLI_HOME } from "./project.js";

const TEMPLATE = "generators/init/template";

export const initCommand: Command = {
  usage: "init [DIR] [--name NAME]",
  summary: "Write a minimal spec project (project file, common types, an example protocol) into DIR.",
  help: `
Writes DIR/spec/ (DIR defaults to the current folder, created when missing):
  spec/project.yaml                        name, version, $id prefix, npm/Maven/Swift package names
  spec/common/types.yaml                   Timestamp and Id, shared by every protocol
  spec/example/protocol.yaml               the example protocol: transports, constants
  spec/example/messages/Note.yaml          a plain message
  spec/example/messages/Command.yaml       an HMAC-signed message (x-signature) admitted once (x-replay)
  spec/example/lifecycles/session.machine.yaml   a lifecycle driven by Command

Then \`agent-contracts generate\` in DIR writes generated/ (TypeScript, Kotlin, Swift). The names
come from DIR's name (or --name, lowercase letters, digits and dashes): npm package NAME, Maven
org.example.<name> / NAME, Swift module <Name>; edit spec/project.yaml to change them. The
meta-schemas stay in the CLI (its spec/meta): each file's first line
(# yaml-language-server: $schema=...) points an editor there.

Refuses a DIR that already has a spec/ folder.`,
  async run(args, io) {
    const { flags, positionals } = parseArgs(args, { valued: ["--name"] });
    if (positionals.length > 1) throw new UsageError(`unexpected argument ${positionals[1]}`);
    const dir = resolve(io.root, positionals[0] ?? ".");
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${dir}: not a folder`);
    if (existsSync(join(dir, "spec"))) throw new UsageError(`${join(dir, "spec")} already exists: init writes a new project only`);
    const nameFlag = flags.get("--name");
    const name = typeof nameFlag === "string" ? nameFlag : slug(basename(dir));
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new UsageError(`--name ${name}: lowercase letters, digits and single dashes, starting with a letter (a project name from the folder's name failed too: pass --name)`);
    const values = identityOf(name);
    const written: string[] = [];
    for (const file of templateFiles(join(CLI_HOME, TEMPLATE))) {
      const text = readFileSync(join(CLI_HOME, TEMPLATE, file), "utf8").replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`${TEMPLATE}/${file}: unknown placeholder ${whole}`);
        return value;
      });
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), text, { flag: "wx" });
      written.push(file);
    }
    for (const file of written) io.out(`wrote ${relative(io.root, join(dir, file)) || file}`);
    io.out(`next: cd ${relative(io.root, dir) || "."} && agent-contracts generate`);
    return 0;
  },
};

/** The template's files, relative to it, sorted. */
function templateFiles(root: string, dir = ""): string[] {
  return readdirSync(join(root, dir))
    .sort()
    .flatMap((n) => (statSync(join(root, dir, n)).isDirectory() ? templateFiles(root, join(dir, n)) : [join(dir, n)]));
}

function slug(folder: string): string {
  return folder.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The placeholders of the template: the project's names, derived from its one name. */
function identityOf(name: string): Record<string, string> {
  const words = name.split("-");
  return {
    name,
    schemaBase: `https://schemas.example.org/${name}/`,
    npm: name,
    javaPackage: `org.example.${words.join("")}`,
    swiftName: words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(""),
    schemas: join(CLI_HOME, "spec", "meta"),
  };
}
