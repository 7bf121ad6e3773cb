// The stated limits on a spec project (issue 31), enforced before the work they limit: a spec
// project may arrive as someone else's pull request or tarball. Plain JavaScript so that the
// pre-tsx no-op check (generators/write/input-files.mjs) hashes no file the loader would refuse.
// Today's spec: 109 files, 1.5 MB together, the largest 104 KB, nesting at most 14 deep.

/** Bytes of one spec file (YAML or JSON), checked with stat before it is read. */
export const MAX_SPEC_FILE_BYTES = 2 * 1024 * 1024;
/** Bytes of all spec files one load reads together. */
export const MAX_SPEC_TOTAL_BYTES = 32 * 1024 * 1024;
/** Spec files one load reads. */
export const MAX_SPEC_FILES = 1000;
/** Nesting of objects and arrays in one file (the document itself is depth 0). */
export const MAX_SPEC_DEPTH = 64;
