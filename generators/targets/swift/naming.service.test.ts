// The naming service the Swift target declares, against hand-written expectations.
import { describe, expect, it } from "vitest";
import { swiftNaming } from "./naming.js";

describe("the Swift naming service", () => {
  it("names types, members, cases, constants and the messages file", () => {
    expect(swiftNaming.type("http_json_request")).toBe("HTTPJSONRequest");
    expect([swiftNaming.member("ring_id"), swiftNaming.member("default")]).toEqual(["ringID", "`default`"]);
    expect([swiftNaming.enumCase("ding-dong"), swiftNaming.enumCase("in")]).toEqual(["dingDong", "`in`"]);
    expect([swiftNaming.constant("MAX_VOLUME"), swiftNaming.constant("RETURN")]).toEqual(["maxVolume", "`return`"]);
    expect(swiftNaming.file("door-bell", "Ring")).toBe("Sources/AgentContracts/DoorBell/DoorBellMessages.swift");
  });
});
