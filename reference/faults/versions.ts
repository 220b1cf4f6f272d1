import type { Fault } from "../http.js";

/** The faults of the group versions (suites/versions/): each makes a check of it fail, for the reason its `because` names. */
export const versionsFaults: Fault[] = [
  // E5: versions.
  {
    name: "versions-flag-renamed",
    breaks: "Resources / Deployment version entry",
    description: "entries carry `current` instead of isCurrent",
    because: { "versions.list.schema": "schema:VersionsListResponse" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map(({ isCurrent, ...v }: any) => ({ ...v, current: isCurrent })) }),
  },
  {
    name: "versions-two-current",
    breaks: "E5; Resources / Deployment version entry",
    description: "a second version is marked isCurrent",
    because: { "versions.current.at-most-one": "one-current" },
    routes: ["E5"],
    respond: ({ body }) => {
      const other = body.data.findIndex((v: any) => !v.isCurrent);
      return { data: body.data.map((v: any, i: number) => (i === other ? { ...v, isCurrent: true } : v)) };
    },
  },
  {
    name: "versions-none-current",
    breaks: "E5",
    description: "no version is marked isCurrent",
    because: { "versions.current.listed": "current-listed" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => ({ ...v, isCurrent: false })) }),
  },
  {
    name: "versions-every-entry-latest-in-channel",
    breaks: "Resources / Deployment version entry (isLatestInChannel)",
    description: "every version of the first entry's channel is marked latest",
    because: { "versions.latest.at-most-one-per-channel": "one-latest" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => (v.releaseChannel === body.data[0].releaseChannel ? { ...v, isLatestInChannel: true } : v)) }),
  },
  {
    name: "versions-channel-without-latest",
    breaks: "E5 (head of each channel)",
    description: "no version of the first entry's channel is marked latest",
    because: { "versions.latest.one-per-channel": "latest-marked" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => (v.releaseChannel === body.data[0].releaseChannel ? { ...v, isLatestInChannel: false } : v)) }),
  },
  {
    name: "versions-reference-names-current",
    breaks: "Resources / Deployment version entry (releaseChannelVersion)",
    description: "every entry's releaseChannelVersion is the image of the current version",
    because: { "versions.reference.names-version": "names-version" },
    routes: ["E5"],
    respond: ({ body }) => {
      const current = body.data.find((v: any) => v.isCurrent)?.releaseChannelVersion;
      return { data: body.data.map((v: any) => ({ ...v, releaseChannelVersion: current })) };
    },
  },
  {
    name: "versions-version-as-tag",
    breaks: "Resources / Deployment version entry (version: a dotted version number)",
    description: "each entry's version is written as the image's tag, with a v before the number (v1.7.20)",
    because: { "versions.entry.dotted-number": "dotted-number" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => ({ ...v, version: `v${v.version}` })) }),
  },
];
