// The names of the declarations the Kotlin emitters write, and the naming service the target
// declares, against hand-written expectations.
import { describe, expect, it } from "vitest";
import { kotlinNaming, lifecycleObjectName, lifecyclePackage, registryName, rulesNames, signingName, sourceFile, unsignedName, validatorsName } from "./kotlin-names.js";

describe("Kotlin declaration names", () => {
  it("names a protocol's objects by its PascalCase id", () => {
    expect([registryName("door-bell"), validatorsName("door-bell"), signingName("door_bell")]).toEqual(["DoorBellMessages", "DoorBellValidators", "DoorBellSigning"]);
  });

  it("puts lifecycles in the protocol package's lifecycles package", () => {
    expect(lifecyclePackage("door-bell")).toBe("dev.agentcontracts.doorbell.lifecycles");
    expect(lifecycleObjectName("chime-visit")).toBe("ChimeVisitLifecycle");
  });

  it("names the unsigned message, the rule list and the rule check", () => {
    expect(unsignedName("Ring")).toBe("UnsignedRing");
    expect(rulesNames("DoorEvent")).toEqual({ rulesName: "doorEventRules", checkName: "checkDoorEventRules" });
  });

  it("puts a declaration in the folder of its package", () => {
    expect(sourceFile("dev.agentcontracts.doorbell", "Ring")).toBe("src/main/kotlin/dev/agentcontracts/doorbell/Ring.kt");
  });

  it("declares the naming service the emitters use", () => {
    expect(kotlinNaming.type("DoorEvent")).toBe("DoorEvent");
    expect([kotlinNaming.member("ring_id"), kotlinNaming.member("class")]).toEqual(["ringId", "`class`"]);
    expect([kotlinNaming.enumCase("ding-dong"), kotlinNaming.enumCase("2fa")]).toEqual(["DING_DONG", "V_2FA"]);
    expect(kotlinNaming.constant("MAX_VOLUME")).toBe("MAX_VOLUME");
    expect(kotlinNaming.file("door-bell", "Ring")).toBe("src/main/kotlin/dev/agentcontracts/doorbell/Ring.kt");
  });
});
