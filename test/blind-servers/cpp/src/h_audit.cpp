// E7: audit log export as CSV.
#include <algorithm>
#include "app.hpp"

namespace {
Json hideSensitive(const Json& j) {
  if (j.isObj()) {
    Json o = Json::object();
    for (auto& kv : j.o) {
      if (isSecretName(kv.first) && !kv.second.isObj() && !kv.second.isArr()) o.set(kv.first, "[HIDDEN]");
      else o.set(kv.first, hideSensitive(kv.second));
    }
    return o;
  }
  if (j.isArr()) {
    Json a = Json::array();
    for (auto& e : j.a) a.push(hideSensitive(e));
    return a;
  }
  return j;
}

void exportAudit(Ctx& c) {
  User& u = c.me();
  const Json* en = S.tenantSettings.get("auditLogEnabled");
  if (!en || !en->isBool() || !en->b) fail(402, "the audit log feature is not enabled for this plan");
  if (!hasPerm(u, "AuditLogManage")) fail(403, "exporting the audit log requires the AuditLogManage permission");
  int64_t start = INT64_MIN, end = INT64_MAX;
  bool dateOnly;
  if (auto s = c.q("start")) {
    if (!s->empty()) {
      if (!parseIsoTime(*s, start, dateOnly)) fail(400, "query parameter 'start' must be an ISO 8601 date or date-time");
    }
  }
  if (auto s = c.q("end")) {
    if (!s->empty()) {
      if (!parseIsoTime(*s, end, dateOnly)) fail(400, "query parameter 'end' must be an ISO 8601 date or date-time");
      if (dateOnly) end += 86399;
    }
  }
  if (start != INT64_MIN && end != INT64_MAX && start > end) fail(422, "'start' must not be after 'end'");
  std::string search = c.q("search").value_or(""), eventName = c.q("eventName").value_or(""), email = c.q("userEmail").value_or("");
  struct Row { const AuditEvent* e; std::vector<std::string> cols; };
  std::vector<Row> rows;
  for (auto& e : S.audit) {
    if (e.at < start || e.at > end) continue;
    if (!eventName.empty() && !icontains(e.event, eventName)) continue;
    if (!email.empty() && !iequals(e.email, email)) continue;
    std::string depName;
    if (e.dep) {
      auto d = S.deps.find(e.dep);
      depName = d == S.deps.end() ? "deleted deployment " + std::to_string(e.dep) : d->second.name;
    }
    Row r{&e, {fmtTime(e.at), e.email, e.event, depName, e.ip, hideSensitive(e.attrs).dump(-1), "evt-" + std::to_string(e.id)}};
    if (!search.empty()) {
      bool hit = false;
      for (auto& col : r.cols) if (icontains(col, search)) hit = true;
      if (!hit) continue;
    }
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    std::string x = lower(a.e->event), y = lower(b.e->event);
    if (x != y) return x < y;
    if (a.e->at != b.e->at) return a.e->at > b.e->at;
    return a.e->id > b.e->id;
  });
  std::string out;
  const char* hdr[] = {"Event Time", "User Email", "Event Name", "Deployment Name", "IP Address", "Attributes", "Event ID"};
  for (int k = 0; k < 7; k++) out += (k ? "," : "") + csvField(hdr[k]);
  out += "\n";
  for (auto& r : rows) {
    for (size_t k = 0; k < r.cols.size(); k++) out += (k ? "," : "") + csvField(r.cols[k]);
    out += "\n";
  }
  c.res.status = 200;
  c.res.headers.push_back({"content-Type", "text/csv; charset=utf-8; header=present"});
  c.res.headers.push_back({"content-Disposition", "attachment; filename*=UTF-8''audit-log-export.csv"});
  c.res.body = out;
  c.res.chunked = true;
  audit(&u, 0, "Audit log exported", Json::object().set("rows", (int64_t)rows.size()));
}
}  // namespace

void regAudit() {
  route("GET", "/api/v1/audit-logs/export", exportAudit)
      .op("exportAuditLog", "Export audit log events as CSV", "Audit")
      .desc("Requires the audit log feature (402 when the plan lacks it) and the AuditLogManage permission. Columns: Event Time, "
            "User Email, Event Name, Deployment Name, IP Address, Attributes, Event ID. Every field is quoted; LF line ends.")
      .qp("start", R"J({"type":"string","description":"ISO 8601 date or date-time (inclusive)"})J")
      .qp("end", R"J({"type":"string","description":"ISO 8601 date (whole day included) or date-time"})J")
      .qp("search", R"J({"type":"string"})J")
      .qp("eventName", R"J({"type":"string","description":"case-insensitive substring of the event name"})J")
      .qp("userEmail", R"J({"type":"string","description":"exact, case-insensitive"})J")
      .resp(200, "csv")
      .err({402});
}
