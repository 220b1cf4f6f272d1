import { group } from "../../core/check/check.js";
import { currentVersions, namesVersion, type VersionEntry } from "../lib/version-list.js";

/** A dotted version number: two or more runs of digits joined by dots; a pre-release or build suffix (-rc1, +b2) is left open. */
const DOTTED_VERSION = /^[0-9]+(\.[0-9]+)+([-+][0-9A-Za-z.-]+)?$/;

function byChannel(list: VersionEntry[]): Map<string, VersionEntry[]> {
  const channels = new Map<string, VersionEntry[]>();
  for (const v of list) channels.set(v.releaseChannel, [...(channels.get(v.releaseChannel) ?? []), v]);
  return channels;
}

export const versionChecks = group("versions", [
  {
    id: "versions.list.schema",
    spec: "E5; Resources / Deployment version entry",
    level: "MUST",
    title: "The versions list answers 200 with entries of releaseChannelVersion, version, releaseChannel, isLatestInChannel, isCurrent",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      expect.ok(await api.call("listVersions", { deploymentId: fixture("deployment").id }), "VersionsListResponse");
    },
  },
  {
    id: "versions.entry.dotted-number",
    spec: "Resources / Deployment version entry (version: a dotted version number); E5",
    level: "MUST",
    title:
      "Each entry's version is a dotted version number (digits separated by dots, e.g. 1.7.20), not an image reference's tag (v1.7.20); a suffix after - or + is taken",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      const off = list.filter((v) => !DOTTED_VERSION.test(v.version));
      expect.that(off.length === 0, "each entry's version is a dotted version number", {
        reason: "dotted-number",
        expected: "e.g. 1.7.20",
        got: off.map((v) => v.version),
        res,
      });
    },
  },
  {
    id: "versions.current.at-most-one",
    // No sentence says how many entries are current: a deployment runs one version, so one is implied.
    spec: "E5; Resources / Deployment version entry",
    level: "SHOULD",
    title: "At most one listed version has isCurrent true",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      const current = list.filter((v) => v.isCurrent === true);
      expect.that(current.length <= 1, "at most one version is the current one", {
        reason: "one-current",
        expected: "0 or 1 with isCurrent",
        got: current.map((v) => v.version),
        res,
      });
    },
  },
  {
    id: "versions.current.listed",
    spec: "E5 (the set includes versions the account has run)",
    level: "SHOULD",
    title: "The version the deployment runs is listed, with isCurrent true",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      expect.that(
        list.some((v) => v.isCurrent === true),
        "one listed version has isCurrent true",
        { reason: "current-listed", expected: "an entry with isCurrent true", got: `${list.length} entries, none current`, res },
      );
    },
  },
  {
    id: "versions.latest.at-most-one-per-channel",
    // No sentence says a channel has one latest entry: "the head of each update channel" implies it.
    spec: "E5; Resources / Deployment version entry (isLatestInChannel)",
    level: "SHOULD",
    title: "No release channel has more than one entry with isLatestInChannel true",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      for (const [channel, entries] of byChannel(list)) {
        const latest = entries.filter((v) => v.isLatestInChannel === true);
        expect.that(latest.length <= 1, `channel ${channel} has at most one latest version`, {
          reason: "one-latest",
          expected: "0 or 1 with isLatestInChannel",
          got: latest.map((v) => v.version),
          res,
        });
      }
    },
  },
  {
    id: "versions.latest.one-per-channel",
    spec: "E5 (the set is the head of each update channel plus older versions)",
    level: "SHOULD",
    title: "Every release channel present has one entry with isLatestInChannel true",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      for (const [channel, entries] of byChannel(list))
        expect.that(
          entries.some((v) => v.isLatestInChannel === true),
          `channel ${channel} has its latest version marked`,
          { reason: "latest-marked", expected: "one entry with isLatestInChannel true", got: entries.map((v) => v.version), res },
        );
    },
  },
  {
    id: "versions.reference.names-version",
    spec: "Resources / Deployment version entry (releaseChannelVersion)",
    level: "SHOULD",
    title: "releaseChannelVersion is an image-style reference of the same version as `version`",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { list, res } = await currentVersions(api, expect, fixture("deployment").id);
      const off = list.filter((v) => !namesVersion(v.releaseChannelVersion, v.version));
      expect.that(off.length === 0, "each releaseChannelVersion names its entry's version", {
        reason: "names-version",
        expected: "e.g. version 1.7.20 with cubejs/cube:v1.7.20",
        got: off.map((v) => `${v.version} -> ${v.releaseChannelVersion}`),
        res,
      });
    },
  },
]);
