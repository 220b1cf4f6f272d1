import type { Exchange } from "./http.js";

/** PUT /api/v1/deployments/{id} (E6), whatever the query: on a real tenant each accepted one may redeploy. */
const UPDATE = /^\/api\/v1\/deployments\/[^/]+$/;

/**
 * Counts the deployment updates a run sends, cleanup included: accepted ones (2xx), which change
 * a deployment, and refused ones, which should change nothing.
 */
export class DeploymentUpdateCounter {
  accepted = 0;
  refused = 0;
  readonly deployments = new Set<string>();

  observe = (exchange: Exchange): void => {
    if (exchange.method !== "PUT") return;
    const path = new URL(exchange.url).pathname;
    if (!UPDATE.test(path)) return;
    if (exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) {
      this.accepted++;
      this.deployments.add(decodeURIComponent(path.split("/").pop()!));
    } else this.refused++;
  };

  line(): string {
    const where = this.deployments.size ? ` to deployment ${[...this.deployments].join(", ")}` : "";
    return `deployment updates (PUT /api/v1/deployments/{id}): ${this.accepted} accepted${where}, ${this.refused} refused`;
  }
}
