// Real and client-derived data for the provider-integration protocol (myagent Provider Integration
// Protocol v0.1) against the generated validators. Sources: document 001, and the public PostdockAI
// clients as read in ../../../shared/protocols/research/agent-connector-and-myagent-implementations.md
// Part B (hermes-agent-plugin @a7c4a8b, pi-adapter @16b1bee and @1ff2d77, cursor-plugin @b6a1761).
// Data only: the few client algorithms needed to derive ids are restated here from the notes.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { validateMessage } from "../../generated/ts/index.js";

const P = "provider-integration";

function expectValid(name: string, value: unknown): void {
  const result = validateMessage(P, name, value);
  if (!result.ok) throw new Error(`${name} rejected: ${JSON.stringify(result.errors)}`);
  expect(result.ok).toBe(true);
}

function firstError(name: string, value: unknown): { instancePath: string; keyword: string; params: Record<string, unknown> } {
  const result = validateMessage(P, name, value);
  if (result.ok) throw new Error(`${name} accepted ${JSON.stringify(value)}`);
  const error = result.errors[0]!;
  return { instancePath: error.instancePath, keyword: error.keyword, params: (error.params ?? {}) as Record<string, unknown> };
}

// Hermes adapter.py _response_message_id: a UUIDv7-shaped reply id derived from the inbound id.
function hermesReplyId(inbound: string): string {
  const compact = inbound.replaceAll("-", "");
  const head = /^[0-9a-fA-F]{12}/.test(compact) ? Buffer.from(compact.slice(0, 12), "hex") : Buffer.alloc(6);
  const raw = Buffer.concat([head, createHash("sha256").update(`${inbound}:reply`, "utf8").digest().subarray(0, 10)]);
  raw[6] = (raw[6]! & 0x0f) | 0x70;
  raw[8] = (raw[8]! & 0x3f) | 0x80;
  const h = raw.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// Hermes tests/live_fixture.mjs messageId(), with the clock and the random UUID passed in.
function fixtureMessageId(now: number, uuid: string): string {
  const timestamp = now.toString(16).padStart(12, "0");
  const random = uuid.replaceAll("-", "").slice(12);
  return `${timestamp.slice(0, 8)}-${timestamp.slice(8)}-7${random.slice(1, 4)}-${((parseInt(random[4]!, 16) & 3) | 8).toString(16)}${random.slice(5, 8)}-${random.slice(8, 20)}`;
}

// Hermes tests/test_adapter.py entry(): note it has no event_id.
function hermesFixtureEntry(sequence: number, sender: string, messageId: string, text: string) {
  return {
    sequence,
    type: "message.received",
    occurred_at: "2026-09-08T00:00:00.000Z",
    payload: { from: sender, message_id: messageId, content: { encoding: "plaintext", text }, attachment_ids: [] as string[] },
  };
}

const FIRST = "01991f2c-4f64-7000-8000-000000000201";
const SECOND = "01991f2c-4f64-7000-8000-000000000202";

const notification = {
  version: "0.1",
  event_id: "evt_01J8ZK4W6B1T9S3X5Q7R2M0N4P",
  connection_id: "conn_7Hq2Lx9Vb4Nc",
  type: "inbox.changed",
};

describe("connection (device authorization, whoami)", () => {
  it("accepts the grants Hermes and Pi request", () => {
    expectValid("ConnectStartRequest", { permissions: ["identity:read", "messages:write", "inbox:read", "inbox:bookmark"] });
    expectValid("ConnectStartRequest", {
      permissions: ["identity:read", "messages:write", "inbox:read", "inbox:bookmark", "contacts:read", "contacts:write"],
    });
    for (const grant of ["identity:read", "messages:write", "inbox:read", "inbox:bookmark"]) expectValid("Permission", grant);
  });

  it("accepts a start response with the fields the clients read, and requires interval and expires_in", () => {
    const start = { device_code: "dc_5d2f0c7e9a4b4f1e8a3c", user_code: "KQJX-7MPD", verification_url: "https://myagent.to/connect", interval: 2, expires_in: 600 };
    expectValid("ConnectStartResponse", start);
    const { interval: _interval, ...withoutInterval } = start;
    expect(firstError("ConnectStartResponse", withoutInterval)).toMatchObject({ instancePath: "", keyword: "required", params: { missingProperty: "interval" } });
  });

  it("accepts Pi's pending poll state and an approved poll with address and secret", () => {
    expectValid("ConnectPollRequest", { device_code: "dc_5d2f0c7e9a4b4f1e8a3c" });
    expectValid("ConnectPollResponse", { status: "pending" });
    expectValid("ConnectPollResponse", { status: "approved", address: "owner/worker", secret: "ma_agent_7f3c9d2e1b4a5f6e8d0c2b1a" });
    expect(firstError("ConnectPollResponse", { status: "approved", address: "owner/worker" })).toMatchObject({
      keyword: "required",
      params: { missingProperty: "secret" },
    });
  });

  it("accepts the addresses in the clients and rejects what Hermes' address check rejects", () => {
    for (const address of ["owner/worker", "alice/agent", "bob/agent", "ajay/researcher"]) expectValid("Whoami", { address });
    for (const address of ["alice", "al/agent", "Alice/agent", "alice/agent/x", "alice/" + "a".repeat(33)]) {
      expect(firstError("Whoami", { address })).toMatchObject({ instancePath: "/address", keyword: "pattern" });
    }
  });
});

describe("inbox handling", () => {
  it("accepts the inbox entry of the research notes (B4)", () => {
    expectValid("InboxEntry", {
      sequence: 1,
      event_id: "evt_01991f2c4f647000800000000201",
      type: "message.received",
      occurred_at: "2026-09-08T00:00:00.000Z",
      payload: { from: "alice/agent", message_id: FIRST, content: { encoding: "plaintext", text: "first" }, attachment_ids: [] },
    });
  });

  it("rejects the Hermes unit-test entry without event_id, naming it (divergence inbox-entry-event-id)", () => {
    expect(firstError("InboxEntry", hermesFixtureEntry(1, "alice/agent", FIRST, "first"))).toMatchObject({
      instancePath: "",
      keyword: "required",
      params: { missingProperty: "event_id" },
    });
  });

  it("accepts the Hermes FakeClient page once the entries carry event ids", () => {
    const entries = [hermesFixtureEntry(1, "alice/agent", FIRST, "first"), hermesFixtureEntry(2, "bob/agent", SECOND, "second")].map((e) => ({
      ...e,
      event_id: `evt_${e.sequence}`,
    }));
    expectValid("InboxPage", { entries, next_after_sequence: null });
    expectValid("InboxPage", { entries: entries.slice(0, 1), next_after_sequence: 1 });
    const duplicate = { entries: [entries[0], { ...entries[1]!, sequence: 1 }], next_after_sequence: null };
    expect(firstError("InboxPage", duplicate)).toMatchObject({ instancePath: "/entries/1/sequence", keyword: "x-rule", params: { rule: "entry-sequence-unique" } });
  });

  it("accepts entries of other types with an open payload (Hermes skips and bookmarks them)", () => {
    expectValid("InboxEntry", { sequence: 3, event_id: "evt_3", type: "contact.request_accepted", occurred_at: "2026-09-08T00:05:12.250Z", payload: { contact: "bob/agent" } });
  });

  it("rejects the older Pi payload shape (body, from_address)", () => {
    const older = {
      sequence: 1,
      event_id: "evt_1",
      type: "message.received",
      occurred_at: "2026-09-08T00:00:00.000Z",
      payload: { from_address: "alice/agent", message_id: FIRST, body: "first" },
    };
    expect(firstError("InboxEntry", older)).toMatchObject({ instancePath: "/payload", keyword: "required" });
  });

  it("accepts the bookmarks the clients send (0 from an empty live-fixture inbox, then sequences)", () => {
    for (const sequence of [0, 1, 2]) expectValid("InboxBookmark", { sequence });
    expect(firstError("InboxBookmark", { sequence: "2" })).toMatchObject({ instancePath: "/sequence", keyword: "type" });
  });
});

describe("replies", () => {
  it("derives the Hermes reply ids exactly as the Python code does", () => {
    // Computed with the Python _response_message_id of hermes-agent-plugin adapter.py.
    expect(hermesReplyId(FIRST)).toBe("01991f2c-4f64-7527-aa0e-e2cc7bd64405");
    expect(hermesReplyId(SECOND)).toBe("01991f2c-4f64-7216-ae53-7e8bace7e6ef");
  });

  it("accepts Hermes' required_action arguments as a SendMessageRequest", () => {
    expectValid("SendMessageRequest", {
      message_id: hermesReplyId(FIRST),
      to: "alice/agent",
      content: { encoding: "plaintext", text: "Acknowledged, Alice." },
      attachment_ids: [],
    });
  });

  it("accepts every Hermes reply id derived from a UUIDv7 inbound id", () => {
    fc.assert(
      fc.property(fc.uuid({ version: 7 }), (inbound) => {
        expectValid("SendMessageRequest", { message_id: hermesReplyId(inbound), to: "alice/agent", content: { encoding: "plaintext", text: "ok" }, attachment_ids: [] });
      }),
    );
  });

  it("accepts every message id the live fixture generates", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_600_000_000_000, max: 2 ** 48 - 1 }), fc.uuid({ version: 4 }), (now, uuid) => {
        expectValid("SendMessageRequest", {
          message_id: fixtureMessageId(now, uuid),
          to: "owner/hermes",
          content: { encoding: "plaintext", text: "Reply with a short acknowledgement that identifies me as Alice." },
          attachment_ids: [],
        });
      }),
    );
  });

  it("accepts Pi's send body at its 32768 limit and rejects one character more", () => {
    const body = (text: string) => ({ message_id: "0198c4d7-1a2b-7c3d-9e4f-5a6b7c8d9e0f", to: "ajay/researcher", content: { encoding: "plaintext", text }, attachment_ids: [] });
    expectValid("SendMessageRequest", body("x".repeat(32768)));
    expect(firstError("SendMessageRequest", body("x".repeat(32769)))).toMatchObject({ instancePath: "/content/text", keyword: "maxLength" });
  });

  it("accepts the send results in Pi's result type", () => {
    expectValid("SendMessageResponse", { accepted: true, duplicate: false, recipient_sequence: 42 });
    expectValid("SendMessageResponse", { accepted: true, duplicate: true, recipient_sequence: 42, retention_expired: true });
  });

  it("accepts the error body the clients read", () => {
    expectValid("ErrorResponse", { error: { message: "device code expired" } });
  });
});

const CONTENT_FIELDS: [string, unknown][] = [
  ["body", "Please call me back"],
  ["text", "Please call me back"],
  ["content", { encoding: "plaintext", text: "Please call me back" }],
  ["message", "Please call me back"],
  ["sender", "alice/agent"],
  ["from", "alice/agent"],
  ["from_address", "alice/agent"],
  ["attachment_ids", ["att_1"]],
  ["attachments", [{ id: "att_1", url: "https://files.myagent.to/att_1" }]],
  ["credential", "ma_agent_7f3c9d2e1b4a5f6e"],
  ["token", "ma_agent_7f3c9d2e1b4a5f6e"],
  ["secret", "ma_agent_7f3c9d2e1b4a5f6e"],
  ["authorization", "Bearer ma_agent_7f3c9d2e1b4a5f6e"],
  ["signed_url", "https://files.myagent.to/att_1?X-Amz-Signature=abc"],
  ["url", "https://files.myagent.to/att_1?sig=abc"],
];

describe("notifications are content-free", () => {
  it("accepts the document's event with real-looking ids", () => {
    expectValid("NotificationEvent", notification);
  });

  it("rejects the document's literal placeholder ids (evt_..., conn_...)", () => {
    expect(firstError("NotificationEvent", { ...notification, event_id: "evt_..." })).toMatchObject({ instancePath: "/event_id", keyword: "pattern" });
    expect(firstError("NotificationEvent", { ...notification, connection_id: "conn_..." })).toMatchObject({ instancePath: "/connection_id", keyword: "pattern" });
  });

  it.each(CONTENT_FIELDS)("rejects a NotificationEvent carrying %s, naming the field", (field, value) => {
    expect(firstError("NotificationEvent", { ...notification, [field]: value })).toMatchObject({
      instancePath: "",
      keyword: "additionalProperties",
      params: { additionalProperty: field },
    });
  });

  // LiveInboxChanged is open for members a server adds (divergence open-server-answers), but a
  // member that would carry content is still refused, by name (propertyNames).
  it.each(CONTENT_FIELDS)("rejects a live frame carrying %s, naming the field", (field, value) => {
    const result = validateMessage(P, "LiveInboxChanged", { type: "inbox.changed", latest_sequence: 42, [field]: value });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toContainEqual(expect.objectContaining({ instancePath: "", keyword: "propertyNames", params: { propertyName: field } }));
  });

  it("accepts a live frame with a member a server added", () => {
    expect(validateMessage(P, "LiveInboxChanged", { type: "inbox.changed", latest_sequence: 42, connection_id: "conn_1", server_time: "2026-09-08T00:00:00Z" }).ok).toBe(true);
  });

  it("keeps the two notification shapes apart (divergence notification-delivery-shape)", () => {
    // A reader of live frames accepts the document's shape too (it is open and both mean "drain").
    expect(validateMessage(P, "LiveInboxChanged", notification).ok).toBe(true);
    expect(firstError("NotificationEvent", { type: "inbox.changed", latest_sequence: 7 })).toMatchObject({ instancePath: "", keyword: "required" });
  });

  it("accepts the observed live frame (Hermes CAPABILITY.md)", () => {
    expectValid("LiveInboxChanged", { type: "inbox.changed", latest_sequence: 7 });
    expectValid("LiveInboxChanged", { type: "inbox.changed" });
  });

  it("rejects any member beyond the four, whatever its name", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !(k in notification) && k !== "__proto__"),
        fc.jsonValue(),
        (key, value) => {
          expect(firstError("NotificationEvent", { ...notification, [key]: value })).toMatchObject({ keyword: "additionalProperties", params: { additionalProperty: key } });
        },
      ),
    );
  });

  it("rejects content smuggled into the ids", () => {
    const smuggled = [
      "evt_https://files.myagent.to/a?sig=abc", // signed URL
      "evt_alice/agent", // sender address
      "evt_alice@example.com", // e-mail
      "evt_eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", // JWT
      "evt_bWFfYWdlbnRfN2YzYw==", // base64 credential
      "evt_Please call me back", // body text
      "evt_" + "a".repeat(41), // too long to be an id
    ];
    for (const event_id of smuggled) {
      expect(firstError("NotificationEvent", { ...notification, event_id })).toMatchObject({ instancePath: "/event_id", keyword: "pattern" });
    }
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /[^A-Za-z0-9-]/.test(s)), (tail) => {
        expect(firstError("NotificationEvent", { ...notification, connection_id: `conn_${tail}` })).toMatchObject({ instancePath: "/connection_id", keyword: "pattern" });
      }),
    );
  });
});

describe("health and disconnect", () => {
  it("distinguishes accepted from the three failures", () => {
    expectValid("NotificationAcceptance", { result: "accepted", event_id: notification.event_id });
    expectValid("NotificationAcceptance", { result: "accepted", event_id: notification.event_id, duplicate: true });
    for (const result of ["authentication_failed", "missing_runtime", "disabled_integration"]) {
      expectValid("NotificationAcceptance", { result, event_id: notification.event_id });
      expectValid("NotificationAcceptance", { result });
    }
    expect(firstError("NotificationAcceptance", { result: "error" })).toMatchObject({ instancePath: "/result", keyword: "discriminator" });
    expect(firstError("NotificationAcceptance", { result: "accepted" })).toMatchObject({ keyword: "required", params: { missingProperty: "event_id" } });
  });

  it("reports Pi's and Hermes' disconnects", () => {
    // Pi: revoke succeeded, socket closed, state file unlinked.
    expectValid("DisconnectResult", { outcome: "disconnected", address: "ajay/researcher", live_channel: "closed" });
    // Hermes: local env removed only; the server credential is left for the owner to revoke.
    expectValid("DisconnectResult", { outcome: "incomplete", address: "owner/worker", failed_steps: ["revoke_binding"] });
    expect(firstError("DisconnectResult", { outcome: "incomplete", failed_steps: [] })).toMatchObject({ instancePath: "/failed_steps", keyword: "minItems" });
  });
});

// The server's answers are read, not written, by this project (divergence open-server-answers):
// a member a server adds must not make a client refuse the answer; requests stay closed.
describe("readers of myagent answers accept members a server adds", () => {
  const answers = ["ConnectStartResponse", "ConnectPollResponse", "InboxPage", "InboxEntry", "SendMessageResponse", "LiveInboxChanged"];
  const specOf = (name: string): { examples: Record<string, unknown>[]; properties?: Record<string, { default?: unknown }> } =>
    parseYaml(readFileSync(new URL(`../../spec/provider-integration/messages/${name}.yaml`, import.meta.url), "utf8"));
  const examplesOf = (name: string): Record<string, unknown>[] => specOf(name).examples;
  for (const name of answers) {
    it(`${name}: every example still validates with an added member`, () => {
      for (const example of examplesOf(name)) {
        const extended: Record<string, unknown> = { ...example, added_by_a_newer_server: { any: ["shape", 1] } };
        if (name === "InboxEntry" && example["type"] === "message.received") extended["payload"] = { ...(example["payload"] as object), added_by_a_newer_server: true };
        if (name === "InboxPage") extended["entries"] = (example["entries"] as Record<string, unknown>[]).map((e) => ({ ...e, added_by_a_newer_server: 1 }));
        expect(validateMessage(P, name, extended)).toMatchObject({ ok: true });
      }
    });
  }
  it("ConnectStartResponse: expires_in is optional (Pi has none; Hermes and Pi use 600 s)", () => {
    const start = { device_code: "dc_1", user_code: "ABCD-EFGH", verification_url: "https://myagent.to/connect", interval: 2 };
    expect(validateMessage(P, "ConnectStartResponse", start).ok).toBe(true);
    expect(specOf("ConnectStartResponse").properties!["expires_in"]!.default).toBe(600);
  });
  for (const request of ["SendMessageRequest", "ConnectPollRequest", "InboxBookmark"]) {
    it(`${request} (written by this project) stays closed`, () => {
      const example = examplesOf(request)[0]!;
      expect(firstError(request, { ...example, added_by_a_newer_server: 1 })).toMatchObject({ keyword: "additionalProperties" });
    });
  }
});
