import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import { TOKEN_ROLES } from "../core/model/needs.js";
import { tokenEnvVars } from "../core/api/settings.js";

const readme = readFileSync(join(packageRoot, "README.md"), "utf8");

// The README is the user's manual: a caller's key the run can take and the README does not name
// is a check the user never learns to enable (AUDITOR and SCOPED were missing after they came).
it("the README names every caller's key: its variable and its config key", () => {
  const missing = TOKEN_ROLES.filter((role) => !readme.includes(`\`${tokenEnvVars[role]}\` | \`${role}\``));
  expect(missing).toEqual([]);
});
