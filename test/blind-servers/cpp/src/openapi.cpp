// GET /api/v1/spec: OpenAPI 3.1 description generated from the route table.
#include <algorithm>
#include "app.hpp"

namespace {
Json parsed(const std::string& s) {
  Json j;
  std::string err;
  if (!parseJson(s, j, err)) {
    fprintf(stderr, "internal schema error: %s in %s\n", err.c_str(), s.substr(0, 120).c_str());
    return Json::object();
  }
  return j;
}
Json sref(const std::string& name) { return Json::object().set("$ref", "#/components/schemas/" + name); }
Json schemaFor(const std::string& s) {
  if (s.empty()) return Json();
  if (s[0] == '#') return sref(s.substr(1));
  if (s.compare(0, 5, "list:") == 0) {
    std::string n = s.substr(5);
    Json arr = Json::object().set("type", "array").set("items", sref(n));
    Json dep = arr;
    dep.set("deprecated", true);
    return Json::object()
        .set("type", "object")
        .set("required", Json::array().push("items").push("pageInfo").push("data"))
        .set("properties", Json::object()
                               .set("items", arr)
                               .set("pageInfo", sref("PageInfo"))
                               .set("data", dep)
                               .set("count", Json::object().set("type", "integer").set("minimum", 0)));
  }
  if (s.compare(0, 5, "data:") == 0)
    return Json::object().set("type", "object").set("required", Json::array().push("data")).set("properties", Json::object().set("data", sref(s.substr(5))));
  return parsed(s);
}
const char* kComponents =
#include "openapi_schemas.inc"
    ;
}  // namespace

Json buildOpenApi() {
  Json doc = Json::object();
  doc.set("openapi", "3.1.0");
  doc.set("info", Json::object()
                      .set("title", "Platform API")
                      .set("version", "1.0.0")
                      .set("description", "Management interface of the analytics platform (independent in-memory C++ implementation). "
                                          "Timestamps use the +05:30 offset; cursor page size defaults to 9 and is clamped at 75."));
  doc.set("servers", Json::array().push(Json::object().set("url", "/")));
  doc.set("security", Json::array().push(Json::object().set("bearerAuth", Json::array())));
  Json paths = Json::object();
  std::vector<std::string> order;
  for (auto& r : allRoutes()) if (!paths.has(r.path)) { paths.set(r.path, Json::object()); order.push_back(r.path); }
  for (auto& r : allRoutes()) {
    Json op = Json::object();
    op.set("operationId", r.opId);
    op.set("summary", r.summary);
    if (!r.description.empty()) op.set("description", r.description);
    op.set("tags", Json::array().push(r.tag));
    Json params = Json::array();
    for (auto& p : r.params) {
      Json pj = Json::object().set("name", p.name).set("in", p.in).set("required", p.required || p.in == "path").set("schema", parsed(p.schema));
      if (!p.description.empty()) pj.set("description", p.description);
      if (p.schema.find("\"array\"") != std::string::npos && p.in == "query") pj.set("explode", true).set("style", "form");
      params.push(pj);
    }
    if (params.size()) op.set("parameters", params);
    if (!r.reqSchema.empty())
      op.set("requestBody", Json::object()
                                .set("required", r.reqRequired)
                                .set("content", Json::object().set("application/json", Json::object().set("schema", schemaFor(r.reqSchema)))));
    Json resps = Json::object();
    for (auto& rs : r.responses) {
      Json one = Json::object();
      std::string code = std::to_string(rs.first);
      one.set("description", rs.first == 201 ? "Created" : rs.first == 202 ? "Accepted" : rs.first == 204 ? "No Content (not finished yet)" : "OK");
      if (rs.second == "csv") {
        one.set("content", Json::object().set("text/csv", Json::object().set("schema", Json::object().set("type", "string"))));
        one.set("headers", Json::object().set("Content-Disposition", Json::object().set("schema", Json::object().set("type", "string"))));
      } else if (!rs.second.empty()) {
        one.set("content", Json::object().set("application/json", Json::object().set("schema", schemaFor(rs.second))));
      }
      if (rs.first == 201) one.set("headers", Json::object().set("Content-Location", Json::object().set("schema", Json::object().set("type", "string"))));
      resps.set(code, one);
    }
    std::vector<int> errs = {400, 401, 403, 404, 405, 413, 422};
    for (int e : r.errors) errs.push_back(e);
    std::sort(errs.begin(), errs.end());
    errs.erase(std::unique(errs.begin(), errs.end()), errs.end());
    for (int e : errs) {
      Json one = Json::object().set("description", reasonPhrase(e));
      one.set("content", Json::object().set("application/json", Json::object().set("schema", sref("Error"))));
      if (e == 401) one.set("headers", Json::object().set("WWW-Authenticate", Json::object().set("schema", Json::object().set("type", "string"))));
      resps.set(std::to_string(e), one);
    }
    op.set("responses", resps);
    (*paths.get(r.path)).set(lower(r.method), op);
  }
  doc.set("paths", paths);
  Json comps = Json::object();
  comps.set("securitySchemes", Json::object().set("bearerAuth", Json::object()
                                                                    .set("type", "http")
                                                                    .set("scheme", "bearer")
                                                                    .set("description", "Account API key. `Api-Key <key>` is accepted too.")));
  comps.set("schemas", parsed(kComponents));
  doc.set("components", comps);
  return doc;
}

void regSpec() {
  route("GET", "/api/v1/spec", [](Ctx& c) { c.ok(buildOpenApi()); })
      .op("getOpenApiSpec", "The OpenAPI 3.1 document of this server", "Meta")
      .resp(200, R"J({"type":"object","required":["openapi","info","paths"]})J");
}
