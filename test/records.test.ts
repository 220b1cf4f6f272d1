import { describe, expect, it } from "vitest";
import { recordIn } from "../core/ledger/records.js";

/** core/ledger/records.ts, recordIn: the one reader of a settings-like answer whose shape the spec does not show (E14). */
describe("recordIn finds the record that holds the fields", () => {
  const fields = ["releaseChannel", "releaseChannelVersion"];

  it("under one key of data, beside other facts (the blind Python server's settings)", () => {
    const deployment = { id: "4104", releaseChannel: "latest", releaseChannelVersion: "cubejs/cube:v1.7.20" };
    expect(recordIn({ data: { deployment, envVarNames: ["DB_HOST"], branches: ["main"] } }, fields)).toBe(deployment);
  });

  it("as the answer, under data, settings or data.settings, before anything nested", () => {
    const settings = { releaseChannel: "latest" };
    expect(recordIn(settings, fields)).toBe(settings);
    expect(recordIn({ data: settings }, fields)).toBe(settings);
    expect(recordIn({ settings }, fields)).toBe(settings);
    expect(recordIn({ data: { settings, other: { releaseChannel: "x" } } }, fields)).toBe(settings);
  });

  it("where no object holds the fields, the outermost object under data", () => {
    const data = { a: 1, nested: { b: 2 } };
    expect(recordIn({ data }, fields)).toBe(data);
  });
});
