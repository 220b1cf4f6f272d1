import { groupedById, type Need } from "../../core/check/check.js";
import { atVersion, documentedTypesStage, updateStage } from "./negative-stage.js";
import { negative } from "../lib/negative-check.js";

/** A bad E6 body that a server took anyway would change the deployment: only the one named for it, only with the opt-in. */
const DEPLOYMENT_CHANGES: Need[] = ["writes", "deployment-changes", "fixture:mutableDeployment"];

export const deploymentUpdateNegativeChecks = groupedById([
  negative({
    id: "deployment-update.negative.unlisted-version",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title:
      "Any E6 body whose releaseChannelVersion is a string that is not a listed version in an accepted form gets 400; one whose releaseChannelVersion is no string, or that is not a JSON object, a 4xx; none changes the deployment",
    needs: DEPLOYMENT_CHANGES,
    parts: [
      {
        endpoint: "E6",
        stage: updateStage,
        select: (b) => atVersion(b) || b.at === "" || b.kind === "malformed-json",
        // E6 rule 1 speaks of versions "given as" a string form: a value of another JSON type is a
        // body a framework refuses before reading it (422 is as mainstream as 400), so any 4xx.
        status: (b) => (atVersion(b) && typeof (b.body as { releaseChannelVersion?: unknown })?.releaseChannelVersion === "string" ? [400] : undefined),
      },
    ],
  }),
  negative({
    id: "deployment-update.negative.mistyped-fields",
    spec: "E6 (field types not shown: the server's own document types them)",
    level: "SHOULD",
    title:
      "An E6 body with another field than releaseChannelVersion of a type the server's own document does not allow there (a number for region, a non-string template variable, ...) is rejected with a 4xx and changes nothing",
    // A template variable a server took anyway could not be removed.
    needs: [...DEPLOYMENT_CHANGES, "unremovable-writes"],
    parts: [{ endpoint: "E6", stage: documentedTypesStage, select: (b) => !atVersion(b) && b.at !== "" && b.kind !== "malformed-json" }],
  }),
]);
