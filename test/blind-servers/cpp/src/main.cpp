// Entry point: seed, register routes, bind 127.0.0.1, print the start line, serve.
#include <cstdio>
#include <cstdlib>
#include "app.hpp"

int main(int argc, char** argv) {
  int port = argc > 1 ? atoi(argv[1]) : 0;
  if (port < 0 || port > 65535) port = 0;
  seedStore();
  regDeployments();
  regEnvironments();
  regAudit();
  regWorkbooks();
  regWorkspace();
  regBuild();
  regDbt();
  regAdmin();
  regEmbed();
  regIntegrations();
  regNotifications();
  regSpec();
  buildOpenApi();  // validates embedded schemas at start (errors go to stderr)
  int fd;
  int bound = httpListen(port, fd);
  if (bound < 0) {
    fprintf(stderr, "cannot bind 127.0.0.1:%d\n", port);
    return 1;
  }
  auto key = [](const char* email) {
    for (auto& kv : S.users) if (kv.second.email == email) return kv.second.apiKey;
    return std::string();
  };
  Json tokens = Json::object()
                    .set("admin", key("ada.admin@acme.example"))
                    .set("developer", key("dev.patel@acme.example"))
                    .set("aiBiUser", key("aiko.tanaka@acme.example"))
                    .set("viewer", key("victor.viewer@acme.example"))
                    .set("auditor", key("audrey.auditor@acme.example"))
                    .set("scoped", key("scott.kim@partner.example"))
                    .set("embedCreator", key("emma.creator@acme.example"))
                    .set("deactivated", key("dora.gone@acme.example"));
  for (auto& kv : S.users) if (kv.second.email == "scott.kim@partner.example") kv.second.scopedDeployment = 48239;
  Json line = Json::object()
                  .set("baseUrl", "http://127.0.0.1:" + std::to_string(bound))
                  .set("token", *tokens.get("admin"))
                  .set("tokens", tokens)
                  .set("fixtures", Json::object()
                                       .set("mutableDeploymentId", "48213")
                                       .set("workbookLimitDeploymentId", "48227")
                                       .set("scopedDeploymentId", "48239"));
  printf("%s\n", line.dump(-1).c_str());
  fflush(stdout);
  fprintf(stderr, "listening on 127.0.0.1:%d with %zu operations\n", bound, allRoutes().size());
  httpServe(fd, dispatch);
  return 0;
}
