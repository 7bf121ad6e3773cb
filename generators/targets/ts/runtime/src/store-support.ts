// What the network-backed stores share: a deadline on every call, and loading a client package
// that is an optional peer dependency with an error that names it.

/** Thrown when a store call does not settle before its deadline. */
export class StoreTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "StoreTimeoutError";
  }
}

/** Thrown when the package a store needs is not installed. */
export class MissingPeerError extends Error {
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`${what} needs the npm package "${packageName}": npm install ${packageName}`);
    this.name = "MissingPeerError";
  }
}

/**
 * `promise`, or a StoreTimeoutError after `ms`. The timer never keeps the process alive. One
 * promise and one timer per call (not Promise.race plus finally): it wraps every store round trip.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeoutError(what, ms)), ms);
    timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Imports an optional peer dependency, or throws MissingPeerError naming it. */
export async function optionalPeer<T>(packageName: string, what: string, load: () => Promise<unknown>): Promise<T> {
  try {
    return (await load()) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new MissingPeerError(packageName, what);
    throw error;
  }
}
