import { cleanBehaviour } from "../../behaviour.js";
import type { VersionRecord } from "../../store.js";

/** Pieces of the faults that only a generated input finds (values the example checks never send): the secret markers a masking fault reads. */
export const MARKERS = "PASS|SECRET|TOKEN|KEY|CREDENTIAL";

/** `1.7.5` read as the closest listed patch of 1.7 (here 1.7.18 or 1.7.20), in every form. */
export function closestPatch(input: string, versions: VersionRecord[], repository: string): VersionRecord | undefined {
  const exact = cleanBehaviour.resolveVersion(input, versions, repository);
  const m = /^(?:[a-z0-9._/-]+:)?v?(\d+)\.(\d+)\.(\d+)$/.exec(input.trim());
  if (exact || !m) return exact;
  const sameMinor = versions.filter((v) => v.version.startsWith(`${m[1]}.${m[2]}.`));
  const distance = (v: VersionRecord) => Math.abs(Number(v.version.split(".")[2]) - Number(m[3]));
  return sameMinor.sort((a, b) => distance(a) - distance(b))[0];
}

export const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

export const wellFormedRef = (i: unknown) => isObject(i) && ["WORKBOOK", "REPORT", "FOLDER"].includes(i.type) && Number.isSafeInteger(i.id);
