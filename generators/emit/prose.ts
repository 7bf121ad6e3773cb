// Sentences the typed targets write into doc comments about the same things, worded once here so
// every language says them alike (and with the right article: "an ActionProposal", "a Ring").

/** `ActionProposal` -> `an ActionProposal`, `Ring` -> `a Ring`: by the first letter's sound as written. */
export function withArticle(name: string): string {
  return `${/^[AEIOU]/i.test(name) ? "an" : "a"} ${name}`;
}

/** The doc sentence of `Unsigned<Message>`: the message before the signing fields are filled in. */
export function unsignedSummary(message: string, signingFields: readonly string[]): string {
  const subject = withArticle(message);
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} before signing: every member except ${signingFields.join(" and ")}, which sign${message} fills in.`;
}
