// Types for generator-home.mjs (plain JavaScript so the CLI can run it before tsx is loaded).

/** The folder this package was checked out or installed in. */
export declare const PACKAGE_HOME: string;

/** Where an installed package records its generator's input hashes. */
export declare const RECORDED_INPUTS: string;

/** The folder holding generators/ and property-tests/ for a generation of `root`. */
export declare function generatorHome(root: string): string;

/** A file of the generator itself (a template folder), as a URL under this package. */
export declare function packageFileUrl(relativePath: string): URL;

/** The generator's input hashes recorded at pack time, or undefined in a checkout. */
export declare function recordedGeneratorInputs(home: string): Record<string, string> | undefined;
