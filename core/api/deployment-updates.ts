import type { Exchange } from "../model/exchange.js";
import { matchOperation } from "./match.js";
import { operation } from "./operations.js";

/** E6, whatever the query: on a real tenant each accepted one may redeploy. */
const UPDATE = [operation("updateDeployment")];

/**
 * Counts the deployment updates a run sends, cleanup included: accepted ones (2xx), which change
 * a deployment, and refused ones, which should change nothing.
 */
export class DeploymentUpdateCounter {
  accepted = 0;
  refused = 0;
  readonly deployments = new Set<string>();

  observe = (exchange: Exchange): void => {
    const update = matchOperation(UPDATE, exchange.method, exchange.url);
    if (!update) return;
    if (exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) {
      this.accepted++;
      this.deployments.add(update.params.deploymentId);
    } else this.refused++;
  };

  line(): string {
    const where = this.deployments.size ? ` to deployment ${[...this.deployments].join(", ")}` : "";
    return `deployment updates (${UPDATE[0].method} ${UPDATE[0].path}): ${this.accepted} accepted${where}, ${this.refused} refused`;
  }
}
