import { describe, expect, it } from "vitest";
import { ServerClock } from "../core/ledger/server-clock.js";
import type { FullAnswer } from "../core/model/exchange.js";

/**
 * Where answers carry no Date header, the ledger reads the server's clock off the createdAt of what
 * the run created under its own name (core/ledger/server-clock.ts): a bound from below, never above.
 */
const answer = (over: Partial<FullAnswer> & { body: unknown }): FullAnswer => ({
  method: "PUT",
  url: new URL("http://server/api/v1/deployments/1/workbooks/by-slug/x"),
  status: 200,
  text: "",
  isJson: true,
  ...over,
});

describe("the server's clock without a Date header", () => {
  it("is the run's own creates' createdAt less the local time of their answers, the largest bound kept", () => {
    const clock = new ServerClock();
    expect(clock.at(1_000)).toBeUndefined();
    // The server stamps 10:00:05 and its answer arrives at local 10:00:00.5: it is at least 4.5 s ahead.
    clock.see(answer({ body: { id: 7, name: "cf-1-abcdef-wb-1", createdAt: "2026-06-01T10:00:05Z" } }), Date.parse("2026-06-01T10:00:00.500Z"));
    clock.see(answer({ body: { data: { id: 8, name: "cf-1-abcdef-wb-2", createdAt: "2026-06-01T10:00:03+00:00" } } }), Date.parse("2026-06-01T10:00:01Z"));
    expect(clock.at(Date.parse("2026-06-01T11:00:00Z"))).toBe(Date.parse("2026-06-01T11:00:04.500Z"));
  });

  it("reads nothing from what the run did not name, a read, a refusal, or a time with no offset", () => {
    const clock = new ServerClock();
    const at = Date.parse("2026-06-01T10:00:00Z");
    clock.see(answer({ body: { id: 1, name: "Copy of Revenue", createdAt: "2030-01-01T00:00:00Z" } }), at);
    clock.see(answer({ method: "GET", body: { id: 2, name: "cf-1-abcdef-wb-1", createdAt: "2030-01-01T00:00:00Z" } }), at);
    clock.see(answer({ status: 409, body: { id: 3, name: "cf-1-abcdef-wb-1", createdAt: "2030-01-01T00:00:00Z" } }), at);
    clock.see(answer({ body: { id: 4, name: "cf-1-abcdef-wb-1", createdAt: "2030-01-01T00:00:00" } }), at);
    clock.see(answer({ body: { id: 5, name: "cf-1-abcdef-wb-1", createdAt: "2030-01-01" } }), at);
    expect(clock.at(at)).toBeUndefined();
  });
});
