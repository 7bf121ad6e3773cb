// The whatwgUrl rule: an HTTPS URL as the WHATWG URL parser reads it, which is how the Agent
// Connector host (Meldwork) reads endpoints and outbound destinations. Node's URL is that parser;
// the Kotlin (WhatwgUrl.kt) and Swift (WhatwgURL.swift) runtimes carry their own implementation
// of the parts an https URL reaches, held to the same verdicts by spec/agent-connector/vectors/whatwg-urls.json.

/** `origin`: the text is exactly a serialized https origin. `endpoint`: an https URL without credentials, query or fragment. */
export type HttpsUrlForm = "origin" | "endpoint";

/** Longer text is refused before parsing; the spec's URL fields allow 2048 characters. */
export const HTTPS_URL_MAX_UNITS = 8192;

export function checkHttpsUrl(text: string, form: HttpsUrlForm): boolean {
  if (text.length > HTTPS_URL_MAX_UNITS) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "") return false;
  // An empty query ("…?") or fragment ("…#") serializes to "" and is no query or fragment.
  if (form === "endpoint") return url.search === "" && url.hash === "";
  return url.origin === text;
}
