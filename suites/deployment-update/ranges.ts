import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the deployment-update checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const deploymentUpdateRanges: RangeCells = {
  E6: [
    {
      where: "cloudProvider, region, template, defaultLaunchpadViewGroup, launchpadTabs, creation method, deploy mode omitted",
      checks: ["deployment-update.merge.omitted-fields-kept"],
    },
    { where: "templateVariables omitted", checks: ["deployment-update.merge.omitted-fields-kept"] },
    { where: "releaseChannel, releaseChannelVersion, releaseChannelVersionHold omitted", checks: ["deployment-update.merge.omitted-fields-kept"] },
    { where: "templateVariables keys not sent", checks: ["deployment-update.merge.template-variables"] },
    { where: "templateVariables keys not sent, beside a key new to the deployment", checks: ["deployment-update.merge.template-variables-new-key"] },
  ],
  "Errors 2": [{ where: "E6, an unlisted version (400)", checks: ["deployment-update.version.unlisted-rejected"] }],
};
