import java.util.*;
import java.util.function.*;

/** E14 operation families. */
@SuppressWarnings("unchecked")
final class Extra {
    static final class Coll {
        final String name; final LinkedHashMap<Long, Map<String, Object>> rows = new LinkedHashMap<>(); long seq;
        Coll(String name, long start) { this.name = name; this.seq = start; }
        Map<String, Object> add(Map<String, Object> m) { long id = ++seq; m.put("id", id); rows.put(id, m); return m; }
    }
    static final Coll NOTIF = new Coll("notification", 900), OAUTH = new Coll("oauth integration", 300), UTOK = new Coll("user oauth token", 400),
            OIDC = new Coll("oidc token config", 500), TENANTS = new Coll("embed tenant", 600), ETUSERS = new Coll("embed user", 6000),
            EGROUPS = new Coll("embed group", 650), GROUPS = new Coll("group", 70), ATTRS = new Coll("user attribute", 80), DBT = new Coll("dbt sync job", 7700),
            UPLOADS = new Coll("upload", 8800);

    static Map<String, Object> ts(Map<String, Object> m) { String n = Util.now(); m.putIfAbsent("createdAt", n); m.put("updatedAt", n); return m; }

    static void seed(Store.User a, Store.User d, Store.User ai, Store.User v) {
        NOTIF.add(ts(Json.obj("deploymentId", 3107L, "name", "Weekly revenue digest", "workbookId", 5008L, "schedule", Json.obj("cron", "0 8 * * 1", "timezone", "Europe/Berlin"),
                "channel", "email", "recipients", Json.arr("cfo@acme-analytics.example"), "timeGrain", "week", "enabled", true,
                "filters", Json.arr(Json.obj("member", "orders.status", "operator", "is_not_empty", "values", new ArrayList<>())), "createdBy", a.id)));
        NOTIF.add(ts(Json.obj("deploymentId", 3107L, "name", "Empty region alert", "workbookId", 5008L, "schedule", Json.obj("cron", "0 6 * * *", "timezone", "UTC"),
                "channel", "slack", "recipients", Json.arr("#ops-alerts"), "timeGrain", "day", "enabled", false,
                "filters", Json.arr(Json.obj("member", "orders.region", "operator", "is_empty", "values", new ArrayList<>())), "createdBy", d.id)));
        OAUTH.add(ts(Json.obj("name", "Google Sheets", "provider", "google", "clientId", "1234-abc.apps.googleusercontent.example", "scopes", Json.arr("sheets.readonly"), "enabled", true)));
        OAUTH.add(ts(Json.obj("name", "Snowflake OAuth", "provider", "snowflake", "clientId", "SNOWFLAKE_CLIENT", "scopes", Json.arr("session:role:ANALYST"), "enabled", true)));
        UTOK.add(ts(Json.obj("userId", a.id, "integrationId", 301L, "expiresAt", "2030-01-01T00:00:00.000+00:00", "scopes", Json.arr("sheets.readonly"))));
        OIDC.add(ts(Json.obj("name", "Okta workforce", "issuer", "https://acme.okta.example", "audience", "platform-api", "claimMappings", Json.obj("email", "email"), "enabled", true)));
        Map<String, Object> t1 = TENANTS.add(ts(Json.obj("name", "Partner North", "externalId", "partner-north", "creatorMode", true)));
        TENANTS.add(ts(Json.obj("name", "Partner South", "externalId", "partner-south", "creatorMode", false)));
        Map<String, Object> g1 = EGROUPS.add(ts(Json.obj("tenantId", t1.get("id"), "name", "Analysts", "memberIds", Json.arr())));
        Map<String, Object> eu = ETUSERS.add(ts(Json.obj("tenantId", t1.get("id"), "externalId", "u-100", "email", "ana@partner-north.example", "name", "Ana North")));
        ((List<Object>) g1.get("memberIds")).add(eu.get("id"));
        ETUSERS.add(ts(Json.obj("tenantId", t1.get("id"), "externalId", "u-101", "email", "ben@partner-north.example", "name", "Ben North")));
        Map<String, Object> gA = GROUPS.add(ts(Json.obj("name", "Finance", "description", "Finance team", "memberIds", Json.arr(a.id))));
        GROUPS.add(ts(Json.obj("name", "Analysts", "description", "BI analysts", "memberIds", Json.arr(ai.id, d.id))));
        GROUPS.add(ts(Json.obj("name", "Viewers", "description", "Read-only", "memberIds", Json.arr(v.id))));
        a.groups.add((Long) gA.get("id"));
        ATTRS.add(ts(Json.obj("name", "region", "type", "string", "displayName", "Sales region", "defaultValue", "EMEA")));
        ATTRS.add(ts(Json.obj("name", "max_discount", "type", "number", "displayName", "Max discount", "defaultValue", 0.15)));
        ATTRS.add(ts(Json.obj("name", "accounts", "type", "number_array", "displayName", "Account ids", "defaultValue", null)));
        ai.attrs.put("region", "APAC"); a.attrs.put("accounts", Json.arr(1L, 2L));
        DBT.add(Json.obj("deploymentId", 3107L, "status", "succeeded", "trigger", "manual", "branchName", "main", "ref", "main", "startedAt", Store.t(50, 1), "finishedAt", Store.t(50, 2), "createdBy", a.id));
        DBT.add(Json.obj("deploymentId", 3107L, "status", "failed", "trigger", "schedule", "branchName", "main", "ref", "v2.3.0", "startedAt", Store.t(52, 1), "finishedAt", Store.t(52, 2), "createdBy", a.id));
        DBT.add(Json.obj("deploymentId", 3107L, "status", "running", "trigger", "webhook", "branchName", "q3-rollup", "ref", "q3-rollup", "startedAt", Store.t(53, 1), "finishedAt", null, "createdBy", d.id));
    }

    static Map<String, Object> page(List<?> all, R r) { Map<String, Object> m = Api.cursorPage(all, r, 25); m.put("count", (long) all.size()); return m; }
    static String listDsl(String item) { return "{items!:[" + item + "], data!:[" + item + "], count!:integer>=0, pageInfo!:$PageInfo}"; }
    static final String[] CURSOR = {"first:integer>=1", "after:string"};
    static String[] cur(String... more) { List<String> l = new ArrayList<>(Arrays.asList(CURSOR)); l.addAll(Arrays.asList(more)); return l.toArray(new String[0]); }
    static void admin(R r) { if (!r.user.role.equals("ADMIN")) throw ApiError.forbidden("administrator role required"); }
    static void dev(R r) { Api.needRank(r, 2, "manage deployments"); }
    static Store.Item item(Store.Deployment d, long id, String type) {
        Store.Item i = Store.ITEMS.get(id);
        if (i == null || i.dep != d.id || !i.type.equals(type)) throw ApiError.notFound(type.toLowerCase(Locale.ROOT) + " " + id);
        return i;
    }
    static Map<String, Object> row(Coll c, long id, Predicate<Map<String, Object>> ok) {
        Map<String, Object> m = c.rows.get(id);
        if (m == null || !ok.test(m)) throw ApiError.notFound(c.name + " " + id);
        return m;
    }
    static Map<String, Object> merge(Map<String, Object> row, Map<String, Object> b) {
        for (Map.Entry<String, Object> e : b.entrySet()) row.put(e.getKey(), Json.deepCopy(e.getValue()));
        row.put("updatedAt", Util.now());
        return row;
    }
    static Object deleted(String kind, Object id) { return Json.obj("deleted", true, "kind", kind, "id", id); }
    static final String DELETED = "{deleted!:boolean, kind!:string, id!:any}";

    /** generic list/create/get/update/delete family */
    static void crud(String base, String idName, String tag, String opBase, String schema, String createDsl, String updateDsl, String updateMethod, Coll c,
                     boolean perDep, Consumer<R> guard, String... listQuery) {
        Function<R, Predicate<Map<String, Object>>> scope = r -> {
            if (!perDep) return m -> true;
            long dep = Api.dep(r).id;
            return m -> Objects.equals(m.get("deploymentId"), dep);
        };
        Main.route("GET", base, "list" + opBase + "s", tag, "List " + c.name + "s").q(cur(listQuery)).resp(200, listDsl("$" + schema)).h(r -> {
            Predicate<Map<String, Object>> p = scope.apply(r);
            List<Object> all = new ArrayList<>();
            String s = r.qStr("search");
            for (Map<String, Object> m : c.rows.values()) {
                if (!p.test(m)) continue;
                if (s != null && !Util.containsCI(Util.str(m.get("name")), s) && !Util.containsCI(Util.str(m.get("email")), s)) continue;
                if (r.q.get("status") != null && !r.q.get("status").equals(m.get("status"))) continue;
                if (r.q.get("trigger") != null && !r.q.get("trigger").equals(m.get("trigger"))) continue;
                all.add(Json.deepCopy(m));
            }
            return page(all, r);
        });
        if (createDsl != null) Main.route("POST", base, "create" + opBase, tag, "Create a " + c.name).body(createDsl, true).resp(200, "$" + schema).h(r -> {
            Predicate<Map<String, Object>> p = scope.apply(r);
            guard.accept(r);
            Map<String, Object> m = (Map<String, Object>) Json.deepCopy(r.b());
            if (perDep) m.put("deploymentId", Api.dep(r).id);
            prep(c, r, m);
            fill(schema, m);
            return Json.deepCopy(c.add(ts(m)));
        });
        String one = base.endsWith("/") ? base + "{" + idName + "}" : base + "/{" + idName + "}";
        Main.route("GET", one, "get" + opBase, tag, "Get a " + c.name).resp(200, "$" + schema).h(r -> Json.deepCopy(row(c, r.pid(idName), scope.apply(r))));
        if (updateDsl != null) Main.route(updateMethod, one, "update" + opBase, tag, "Update a " + c.name + " (partial merge)").body(updateDsl, true).resp(200, "$" + schema).h(r -> {
            Map<String, Object> m = row(c, r.pid(idName), scope.apply(r));
            guard.accept(r);
            Map<String, Object> b = (Map<String, Object>) Json.deepCopy(r.b());
            prep(c, r, b);
            return Json.deepCopy(merge(m, b));
        });
        Main.route("DELETE", one, "delete" + opBase, tag, "Delete a " + c.name).resp(200, DELETED).h(r -> {
            Map<String, Object> m = row(c, r.pid(idName), scope.apply(r));
            guard.accept(r);
            c.rows.remove((Long) m.get("id"));
            return deleted(c.name, m.get("id"));
        });
    }
    static void prep(Coll c, R r, Map<String, Object> m) {
        m.remove("clientSecret"); m.remove("accessToken"); m.remove("refreshToken");
        if (c == UTOK) { m.put("userId", r.user.id); row(OAUTH, (Long) m.get("integrationId"), x -> true); m.putIfAbsent("scopes", Json.arr()); }
        if (c == OAUTH) { m.putIfAbsent("scopes", Json.arr()); m.putIfAbsent("enabled", true); }
        if (c == OIDC) { m.putIfAbsent("claimMappings", Json.obj()); m.putIfAbsent("enabled", true); }
        if (c == TENANTS) m.putIfAbsent("creatorMode", false);
        if (c == GROUPS) { m.putIfAbsent("memberIds", Json.arr()); for (Object u : (List<Object>) m.get("memberIds")) if (!Store.USERS.containsKey((Long) u)) throw ApiError.invalid("unknown user id " + u); m.put("memberIds", new ArrayList<>(new LinkedHashSet<>((List<Object>) m.get("memberIds")))); }
        if (c == ATTRS) {
            if (m.get("name") != null) { String n = (String) m.get("name"); if (!n.matches("[a-z][a-z0-9_]*")) throw ApiError.invalid("attribute name must match [a-z][a-z0-9_]*");
                if (ATTRS.rows.values().stream().anyMatch(a -> a.get("name").equals(n))) throw new ApiError(409, "attribute_exists", "attribute " + n + " already exists"); }
            m.putIfAbsent("defaultValue", null);
            if (m.get("defaultValue") != null && m.get("type") != null && !typeOk((String) m.get("type"), m.get("defaultValue"))) throw ApiError.invalid("defaultValue does not match type " + m.get("type"));
        }
        if (c == NOTIF) {
            if (m.get("workbookId") != null) Api.workbookIn(Api.dep(r), (Long) m.get("workbookId"));
            m.putIfAbsent("enabled", true); m.putIfAbsent("filters", Json.arr()); m.putIfAbsent("createdBy", r.user.id);
        }
    }
    /** fills optional fields declared by the schema with null so answers always carry every property */
    static void fill(String schema, Map<String, Object> m) {
        Schema s = Schema.COMPONENTS.get(schema);
        if (s != null && s.props != null) for (String k : s.props.keySet()) if (!m.containsKey(k) && s.props.get(k).nullable) m.put(k, null);
    }

    static void register() {
        // ---------- component schemas ----------
        Schema.def("AppConfig", "{appTheme!:object, applyThemeGlobally!:boolean, creatorMode!:boolean, embedding!:object, sheetsUi!:object, timezoneSettings!:object}");
        Schema.def("Notification", "{id!:integer, deploymentId!:integer, name!:string, workbookId!:integer?, schedule!:{cron!:string, timezone:string}, channel!:(email|slack|webhook),"
                + " recipients!:[string], timeGrain!:(hour|day|week|month|quarter|year)?, enabled!:boolean, filters!:[$NotificationFilter], createdBy:integer?, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("NotificationFilter", "{member!:string, operator!:(equals|not_equals|contains|gt|gte|lt|lte|in_date_range|is_empty|is_not_empty), values:[string]}");
        Schema.def("OAuthIntegration", "{id!:integer, name!:string, provider!:string, clientId!:string, scopes!:[string], enabled!:boolean, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("UserOAuthToken", "{id!:integer, userId!:integer, integrationId!:integer, expiresAt!:datetime?, scopes!:[string], createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("OidcTokenConfig", "{id!:integer, name!:string, issuer!:string, audience!:string, claimMappings!:object, enabled!:boolean, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("EmbedTenant", "{id!:integer, name!:string, externalId!:string, creatorMode!:boolean, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("EmbedUser", "{id!:integer, tenantId!:integer, externalId!:string, email!:string?, name!:string?, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("EmbedGroup", "{id!:integer, tenantId!:integer, name!:string, memberIds!:[integer], createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("Group", "{id!:integer, name!:string, description!:string?, memberIds!:[integer], createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("UserAttribute", "{id!:integer, name!:string, type!:(string|number|boolean|string_array|number_array), displayName!:string?, defaultValue!:any, createdAt!:datetime, updatedAt!:datetime}");
        Schema.def("User", "{id!:integer, email!:string, firstName!:string?, lastName!:string?, role!:(VIEWER|AI_BI_USER|DEVELOPER|ADMIN), status!:(active|deactivated), picture!:string?, groupIds!:[integer], createdAt!:datetime}");
        Schema.def("DbtSyncJob", "{id!:integer, deploymentId!:integer, status!:(queued|running|succeeded|failed|cancelled), trigger!:(manual|schedule|webhook), branchName!:string?, ref!:string?, startedAt!:datetime?, finishedAt!:datetime?, createdBy!:integer?}");
        Schema.def("Folder", "{id!:integer, name!:string, position!:integer, deploymentId!:integer, createdAt!:datetime, updatedAt!:datetime, type!:(FOLDER), parentId!:integer?, createdBy!:integer, user!:$ResourceOwner?, folderPath!:[$FolderPathEntry]}");
        Schema.def("Placement", "{placementId!:string, externalWorkbookId!:string, sheetName!:string, anchorCell!:string, refreshedAt!:datetime?}");
        Schema.def("Report", "{id!:integer, publicId!:string, deploymentId!:integer, workbookId!:integer?, folderId!:integer?, name!:string, title!:string?, description!:string?, kind!:(vega|table|kpi|html|map)?,"
                + " sqlQuery!:string?, pythonCode!:string?, spec!:any, createdAt!:datetime, updatedAt!:datetime, lastViewedAt!:datetime?, createdBy!:integer, placements!:[$Placement]}");
        Schema.def("DataModelFile", "{fileName!:string, content!:string, size!:integer, hash!:string}");
        Schema.def("Region", "{id!:string, name!:string, cloudProvider!:(hosted|aws|gcp), available!:boolean}");
        Schema.def("ItemDeleteFailure", "{type!:(WORKBOOK|REPORT|FOLDER), id!:integer, error!:{message!:string, status!:integer}}");
        Schema.def("LogEntry", "{timestamp!:datetime, source!:(production|dev), container!:string, level!:string, message!:string}");
        Schema.def("Pod", "{name!:string, status!:string, containers!:[string], restarts!:integer, startedAt!:datetime, branch!:string}");
        Schema.def("BuildStatus", "{branchName!:string, status!:(pending|building|deploying|deployed|failed), lastHash!:string?, updatedAt!:datetime}");
        Schema.def("ValidationResult", "{valid!:boolean, branchName!:string, errors!:[{fileName!:string, line!:integer?, message!:string}]}");

        // ---------- meta / config ----------
        Main.route("GET", "/api/v1/app-config", "getAppConfig", "Meta", "App configuration").resp(200, "$AppConfig").h(r -> {
            Map<String, Object> m = (Map<String, Object>) Json.deepCopy(Store.appConfig);
            m.put("creatorMode", r.user.creatorMode);
            return m;
        });
        Main.route("GET", "/api/v1/tenant/settings", "getTenantSettings", "Tenant", "Tenant settings").resp(200, "{data!:object}").h(r -> Json.obj("data", Json.deepCopy(Store.tenantSettings)));
        Main.route("PUT", "/api/v1/tenant/settings", "updateTenantSettings", "Tenant", "Update tenant settings (partial merge)")
                .body("{name:string, timezone:string, defaultRole:(VIEWER|AI_BI_USER|DEVELOPER|ADMIN), ssoEnforced:boolean, allowedEmailDomains:[string], auditLogEnabled:boolean}", true)
                .resp(200, "{data!:object}").h(r -> { admin(r); Store.tenantSettings.putAll((Map<String, Object>) Json.deepCopy(r.b())); Store.audit("Tenant settings updated", r.user, null, Json.obj()); return Json.obj("data", Json.deepCopy(Store.tenantSettings)); });
        Main.route("GET", "/api/v1/regions/", "listRegions", "Deployments", "Regions available to the tenant").q(CURSOR).resp(200, listDsl("$Region")).h(r -> {
            List<Object> l = new ArrayList<>();
            for (String[] x : new String[][]{{"gcp-us-central1", "US Central (Iowa)", "gcp"}, {"gcp-europe-west3", "Europe West (Frankfurt)", "gcp"}, {"aws-us-east-1", "US East (N. Virginia)", "aws"},
                    {"aws-eu-west-1", "EU West (Ireland)", "aws"}, {"hosted-eu", "Hosted EU", "hosted"}, {"hosted-us", "Hosted US", "hosted"}})
                l.add(Json.obj("id", x[0], "name", x[1], "cloudProvider", x[2], "available", !x[0].equals("hosted-us")));
            return page(l, r);
        });

        // ---------- deployments ----------
        Main.route("GET", "/api/v1/deployments/{deploymentId}/settings", "getDeploymentSettings", "Deployments", "All deployment settings, secrets excluded")
                .resp(200, "{data!:{deployment!:$DeploymentDetail, envVarNames!:[string], secretsExcluded!:[string]}}").h(r -> {
                    Store.Deployment d = Api.dep(r);
                    List<Object> names = new ArrayList<>(), sec = new ArrayList<>();
                    for (String k : new TreeSet<>(d.envVars.keySet())) { names.add(k); if (Api.secretName(k)) sec.add(k); }
                    return Json.obj("data", Json.obj("deployment", Api.depJson(d, true), "envVarNames", names, "secretsExcluded", sec));
                });
        Main.route("DELETE", "/api/v1/deployments/{deploymentId}", "deleteDeployment", "Deployments", "Delete a deployment").resp(200, DELETED).h(r -> {
            Store.Deployment d = Api.dep(r); admin(r);
            Store.DEPS.remove(d.id);
            Store.ITEMS.values().removeIf(i -> i.dep == d.id);
            Store.audit("Deployment deleted", r.user, null, Json.obj("deploymentId", d.id));
            return deleted("deployment", String.valueOf(d.id));
        });
        Main.route("PUT", "/api/v1/deployments/{deploymentId}/env-vars", "setEnvVars", "Deployments", "Set environment variables (add or update by name)")
                .body("{env_variables!:[{name!:string, value!:string}]<=200}", true).resp(200, "$EnvVarList").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    List<Object> l = (List<Object>) r.b().get("env_variables");
                    for (Object o : l) {
                        Map<String, Object> e = (Map<String, Object>) o;
                        String n = (String) e.get("name");
                        if (!n.matches("[A-Za-z_][A-Za-z0-9_]*") || n.length() > 200) throw ApiError.invalid("invalid variable name '" + n + "'");
                        if ("[ENCRYPTED]".equals(e.get("value"))) throw ApiError.invalid("the [ENCRYPTED] placeholder cannot be stored as a value (variable " + n + ")");
                    }
                    for (Object o : l) { Map<String, Object> e = (Map<String, Object>) o; d.envVars.put((String) e.get("name"), (String) e.get("value")); }
                    Store.audit("Environment variables updated", r.user, d.id, Json.obj("count", (long) l.size()));
                    List<Object> all = Api.envVarList(d);
                    return Json.obj("items", all, "data", new ArrayList<>(all), "pageInfo", Api.pageInfo(0, all.size(), all.size()));
                });
        Main.route("GET", "/api/v1/deployments/{deploymentId}/build-status", "getBuildStatus", "Deployments", "Build/deploy state for a branch")
                .q("branchName:string").resp(200, "{data!:$BuildStatus}").h(r -> {
                    Store.Deployment d = Api.dep(r);
                    Store.Branch b = branch(d, r.q.get("branchName") == null ? "main" : r.qStr("branchName"));
                    String st = b.name.equals("q3-rollup") ? "failed" : b.kind.equals("personal") ? "building" : "deployed";
                    return Json.obj("data", Json.obj("branchName", b.name, "status", st, "lastHash", b.lastHash, "updatedAt", b.createdAt));
                });
        Main.route("GET", "/api/v1/deployments/{deploymentId}/logs", "getDeploymentLogs", "Deployments", "Container logs")
                .q(cur("source:(production|dev)", "container:(INIT|MAIN|vector|api-proxy|cube)")).resp(200, listDsl("$LogEntry")).h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    List<Object> l = new ArrayList<>();
                    String[] cs = {"INIT", "MAIN", "vector", "api-proxy", "cube"};
                    for (int k = 0; k < 40; k++) {
                        String src = k % 4 == 3 ? "dev" : "production", c = cs[k % cs.length];
                        if (r.q.get("source") != null && !src.equals(r.q.get("source"))) continue;
                        if (r.q.get("container") != null && !c.equals(r.q.get("container"))) continue;
                        l.add(Json.obj("timestamp", Store.t(60, k % 24), "source", src, "container", c, "level", k % 9 == 0 ? "warn" : "info", "message", c + " [" + d.id + "] event #" + k));
                    }
                    return page(l, r);
                });
        Main.route("GET", "/api/v1/deployments/{deploymentId}/pods", "listPods", "Deployments", "Pods of the deployment").q(CURSOR).resp(200, listDsl("$Pod")).h(r -> {
            Store.Deployment d = Api.dep(r); dev(r);
            List<Object> l = new ArrayList<>();
            for (Store.Branch b : d.branches) if (!b.kind.equals("shared") || b.staging)
                l.add(Json.obj("name", "cube-" + d.id + "-" + b.name + "-" + b.lastHash.substring(0, 5), "status", "Running", "containers", Json.arr("INIT", "MAIN", "vector", "api-proxy", "cube"), "restarts", b.id % 3, "startedAt", b.createdAt, "branch", b.name));
            return page(l, r);
        });
        for (String act : List.of("advance", "reset")) Main.route("POST", "/api/v1/deployments/{deploymentId}/creation-step/" + act, act + "CreationStep", "Deployments", (act.equals("advance") ? "Advance" : "Reset") + " the setup wizard")
                .body("{}", false).resp(200, "{data!:{deploymentId!:string, creationStep!:(connect-source|generate-model|configure|completed)}}").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    List<String> steps = List.of("connect-source", "generate-model", "configure", "completed");
                    int k = steps.indexOf((String) d.s.get("creationStep"));
                    d.s.put("creationStep", act.equals("reset") ? steps.get(0) : steps.get(Math.min(k + 1, steps.size() - 1)));
                    return Json.obj("data", Json.obj("deploymentId", String.valueOf(d.id), "creationStep", d.s.get("creationStep")));
                });
        Main.route("POST", "/build/api/v1/deployments/", "createDeployment", "Deployments", "Create a deployment")
                .body("{name!:string<=120, cloudProvider:(hosted|aws|gcp), region:string, creationMethod:(upload|hosted|github|ssh), deployMode:(git|cli), releaseChannel:(latest|release)}", true)
                .resp(202, "{data!:$DeploymentDetail}").h(r -> {
                    dev(r);
                    Map<String, Object> b = r.b();
                    if (((String) b.get("name")).isBlank()) throw ApiError.invalid("name must not be empty");
                    String ch = b.get("releaseChannel") == null ? "release" : (String) b.get("releaseChannel");
                    Store.Deployment d = Store.dep(++Store.depSeq, (String) b.get("name"), 0, b.get("region") == null ? "us-central1" : (String) b.get("region"),
                            b.get("cloudProvider") == null ? "hosted" : (String) b.get("cloudProvider"), Store.CHANNELS.get(ch).get(0), r.user.id);
                    d.createdAt = Util.now();
                    d.s.put("creationMethod", b.get("creationMethod") == null ? "hosted" : b.get("creationMethod"));
                    d.s.put("deployMode", b.get("deployMode") == null ? "git" : b.get("deployMode"));
                    d.s.put("creationStep", "connect-source");
                    if (r.user.scopeDeployment != null) r.user.scopeDeployment = d.id;
                    Store.audit("Deployment created", r.user, d.id, Json.obj());
                    return new Resp(202, Json.obj("data", Api.depJson(d, true)));
                });

        // ---------- data model / build ----------
        String BD = "/build/api/v1/deployments/{deploymentId}";
        Main.route("GET", BD + "/data-model/files", "listDataModelFiles", "Data model", "List data-model files of a branch").q(cur("branchName:string")).resp(200, listDsl("$DataModelFile")).h(r -> {
            Store.Deployment d = Api.dep(r);
            return page(fileList(d, branchFor(r, d, false)), r);
        });
        Main.route("PUT", BD + "/data-model/files", "writeDataModelFiles", "Data model", "Write data-model files (dev-mode branches only)")
                .body("{branchName:string, files!:[{fileName!:string<=300, content!:string}]<=500}", true).resp(200, "{data!:{branchName!:string, written!:[string]}}").err(409).h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Store.Branch b = branchFor(r, d, true);
                    List<Object> w = new ArrayList<>();
                    for (Object o : (List<Object>) r.b().get("files")) { Map<String, Object> f = (Map<String, Object>) o; checkName((String) f.get("fileName")); }
                    for (Object o : (List<Object>) r.b().get("files")) { Map<String, Object> f = (Map<String, Object>) o; d.files.get(b.name).put((String) f.get("fileName"), (String) f.get("content")); w.add(f.get("fileName")); }
                    b.lastHash = Util.sha1(Json.write(d.files.get(b.name))).substring(0, 12);
                    return Json.obj("data", Json.obj("branchName", b.name, "written", w));
                });
        Main.route("DELETE", BD + "/data-model/files", "deleteDataModelFiles", "Data model", "Remove data-model files (dev-mode branches only)")
                .body("{branchName:string, fileNames!:[string]<=500}", true).resp(200, "{data!:{branchName!:string, removed!:[string], missing!:[string]}}").err(409).h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Store.Branch b = branchFor(r, d, true);
                    List<Object> rem = new ArrayList<>(), miss = new ArrayList<>();
                    for (Object o : (List<Object>) r.b().get("fileNames")) (d.files.get(b.name).remove((String) o) != null ? rem : miss).add(o);
                    return Json.obj("data", Json.obj("branchName", b.name, "removed", rem, "missing", miss));
                });
        Main.route("POST", BD + "/data-model/files/rename", "renameDataModelFiles", "Data model", "Rename data-model files (dev-mode branches only)")
                .body("{branchName:string, renames!:[{from!:string, to!:string<=300}]<=500}", true).resp(200, "{data!:{branchName!:string, renamed!:[{from!:string, to!:string}]}}").err(409).h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Store.Branch b = branchFor(r, d, true);
                    TreeMap<String, String> fs = d.files.get(b.name);
                    for (Object o : (List<Object>) r.b().get("renames")) {
                        Map<String, Object> x = (Map<String, Object>) o;
                        if (!fs.containsKey((String) x.get("from"))) throw ApiError.notFound("file " + x.get("from"));
                        checkName((String) x.get("to"));
                        if (fs.containsKey((String) x.get("to")) && !x.get("to").equals(x.get("from"))) throw new ApiError(409, "file_exists", "file " + x.get("to") + " already exists");
                    }
                    List<Object> done = new ArrayList<>();
                    for (Object o : (List<Object>) r.b().get("renames")) { Map<String, Object> x = (Map<String, Object>) o; fs.put((String) x.get("to"), fs.remove((String) x.get("from"))); done.add(Json.obj("from", x.get("from"), "to", x.get("to"))); }
                    return Json.obj("data", Json.obj("branchName", b.name, "renamed", done));
                });
        Main.route("GET", BD + "/data-model/validate", "validateDataModel", "Data model", "Compile a branch; compilation errors are answered with 200 and valid=false")
                .q("branchName:string").resp(200, "{data!:$ValidationResult}").h(r -> {
                    Store.Deployment d = Api.dep(r);
                    Store.Branch b = branchFor(r, d, false);
                    List<Object> errs = new ArrayList<>();
                    for (Map.Entry<String, String> f : d.files.get(b.name).entrySet()) {
                        String c = f.getValue();
                        if (f.getKey().endsWith(".yml") || f.getKey().endsWith(".yaml")) {
                            String[] lines = c.split("\n");
                            for (int k = 0; k < lines.length; k++) if (lines[k].contains("\t")) { errs.add(Json.obj("fileName", f.getKey(), "line", (long) k + 1, "message", "tab characters are not allowed in YAML indentation")); break; }
                            if (count(c, '[') != count(c, ']')) errs.add(Json.obj("fileName", f.getKey(), "line", null, "message", "unbalanced brackets"));
                        } else if (count(c, '{') != count(c, '}')) errs.add(Json.obj("fileName", f.getKey(), "line", null, "message", "unbalanced braces"));
                    }
                    return Json.obj("data", Json.obj("valid", errs.isEmpty(), "branchName", b.name, "errors", errs));
                });
        Main.route("POST", BD + "/data-model/upload/start", "startUpload", "Data model", "Start a chunked upload")
                .body("{branchName:string}", false).resp(200, "{data!:{uploadId!:string, branchName!:string}}").err(409).h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Store.Branch b = branchFor(r, d, true);
                    Map<String, Object> u = UPLOADS.add(Json.obj("deploymentId", d.id, "branchName", b.name, "files", new LinkedHashMap<String, Object>(), "token", "upl_" + Util.hex(10)));
                    return Json.obj("data", Json.obj("uploadId", u.get("token"), "branchName", b.name));
                });
        Main.route("POST", BD + "/data-model/upload/file", "uploadFile", "Data model", "Upload one file chunk")
                .body("{uploadId!:string, fileName!:string<=300, content!:string, chunkIndex:integer>=0}", true).resp(200, "{data!:{uploadId!:string, fileName!:string, receivedBytes!:integer}}").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Map<String, Object> u = upload(d, (String) r.b().get("uploadId"));
                    String fn = (String) r.b().get("fileName"); checkName(fn);
                    Map<String, Object> fs = (Map<String, Object>) u.get("files");
                    fs.put(fn, Util.str(fs.getOrDefault(fn, "")) + r.b().get("content"));
                    return Json.obj("data", Json.obj("uploadId", u.get("token"), "fileName", fn, "receivedBytes", (long) ((String) fs.get(fn)).length()));
                });
        Main.route("POST", BD + "/data-model/upload/finish", "finishUpload", "Data model", "Finish a chunked upload and apply its files")
                .body("{uploadId!:string}", true).resp(200, "{data!:{uploadId!:string, branchName!:string, files!:[string]}}").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Map<String, Object> u = upload(d, (String) r.b().get("uploadId"));
                    Map<String, Object> fs = (Map<String, Object>) u.get("files");
                    TreeMap<String, String> target = d.files.get((String) u.get("branchName"));
                    if (target == null) throw ApiError.notFound("branch " + u.get("branchName"));
                    for (Map.Entry<String, Object> e : fs.entrySet()) target.put(e.getKey(), (String) e.getValue());
                    UPLOADS.rows.remove((Long) u.get("id"));
                    return Json.obj("data", Json.obj("uploadId", u.get("token"), "branchName", u.get("branchName"), "files", new ArrayList<>(fs.keySet())));
                });
        Main.route("GET", BD + "/data-model/file-hashes", "getFileHashes", "Data model", "File hashes of a branch").q(cur("branchName:string")).resp(200, listDsl("{fileName!:string, hash!:string}")).h(r -> {
            Store.Deployment d = Api.dep(r);
            List<Object> l = new ArrayList<>();
            for (Map.Entry<String, String> f : d.files.get(branchFor(r, d, false).name).entrySet()) l.add(Json.obj("fileName", f.getKey(), "hash", Util.sha1(f.getValue())));
            return page(l, r);
        });
        Main.route("POST", BD + "/dev-mode", "startDevMode", "Dev mode", "Start dev mode for the caller").body("{}", false).resp(200, "{data!:{active!:boolean, branchName!:string}}").h(r -> {
            Store.Deployment d = Api.dep(r); dev(r);
            String bn = d.devMode.get(r.user.id);
            if (bn == null) {
                bn = "dev-" + r.user.email.split("@")[0].replaceAll("[^a-z0-9]+", "-");
                String fbn = bn;
                if (d.branches.stream().noneMatch(x -> x.name.equals(fbn))) Store.branch(d, bn, "main", "personal", r.user.id, false);
                d.devMode.put(r.user.id, bn);
            }
            return Json.obj("data", Json.obj("active", true, "branchName", bn));
        });
        Main.route("DELETE", BD + "/dev-mode", "stopDevMode", "Dev mode", "Stop dev mode for the caller").resp(200, "{data!:{active!:boolean, branchName!:string?}}").h(r -> {
            Store.Deployment d = Api.dep(r); dev(r);
            String bn = d.devMode.remove(r.user.id);
            Map<String, Object> m = Json.obj("active", false); m.put("branchName", bn);
            return Json.obj("data", m);
        });
        Main.route("GET", BD + "/branches", "listBranches", "Branches", "List branches").q(CURSOR).resp(200, listDsl("$Branch")).h(r -> {
            Store.Deployment d = Api.dep(r);
            List<Object> l = new ArrayList<>();
            for (Store.Branch b : d.branches) l.add(Api.branchJson(b));
            return page(l, r);
        });
        Main.route("POST", BD + "/branches", "createBranch", "Branches", "Create a branch").body("{name!:string<=100, from:string, activate:boolean}", true).resp(200, "{data!:$Branch}").err(409).h(r -> {
            Store.Deployment d = Api.dep(r); dev(r);
            String n = (String) r.b().get("name");
            if (!n.matches("[A-Za-z0-9][A-Za-z0-9._/-]*")) throw ApiError.invalid("invalid branch name");
            if (d.branches.stream().anyMatch(x -> x.name.equals(n))) throw new ApiError(409, "branch_exists", "branch " + n + " already exists");
            String from = r.b().get("from") == null ? "main" : (String) r.b().get("from");
            branch(d, from);
            Store.Branch b = Store.branch(d, n, from, "shared", r.user.id, false);
            if (Boolean.TRUE.equals(r.b().get("activate"))) d.devMode.put(r.user.id, n);
            return Json.obj("data", Api.branchJson(b));
        });
        Main.route("DELETE", BD + "/branches", "deleteBranch", "Branches", "Delete a branch; children are re-parented").q("branchName!:string", "removeOnUpstream:boolean")
                .resp(200, "{data!:{deleted!:string, reparented!:[string], removedOnUpstream!:boolean}}").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    Store.Branch b = branch(d, r.qStr("branchName"));
                    if (b.kind.equals("production")) throw ApiError.invalid("the production branch cannot be deleted");
                    List<Object> rep = new ArrayList<>();
                    for (Store.Branch c : d.branches) if (b.name.equals(c.parent)) { c.parent = b.parent; rep.add(c.name); }
                    d.branches.remove(b); d.files.remove(b.name); d.devMode.values().removeIf(v -> v.equals(b.name));
                    return Json.obj("data", Json.obj("deleted", b.name, "reparented", rep, "removedOnUpstream", Boolean.TRUE.equals(r.q.get("removeOnUpstream"))));
                });
        for (String op : List.of("commit", "pull", "merge", "merge-to-default")) {
            String dsl = op.equals("commit") ? "{branchName:string, message!:string<=500}" : op.equals("merge") ? "{branchName:string, into!:string}" : "{branchName:string}";
            Main.route("POST", BD + "/" + op, op.equals("merge-to-default") ? "mergeToDefault" : op + "Branch", "Branches", "Branch operation: " + op)
                    .body(dsl, !dsl.equals("{branchName:string}")).resp(200, "{data!:{operation!:string, branchName!:string, lastHash!:string}}").h(r -> {
                        Store.Deployment d = Api.dep(r); dev(r);
                        Store.Branch b = branchFor(r, d, false);
                        Store.Branch target = op.equals("merge") ? branch(d, (String) r.b().get("into")) : op.equals("merge-to-default") ? branch(d, "main") : b;
                        if (op.startsWith("merge") && target == b) throw ApiError.invalid("cannot merge a branch into itself");
                        if (op.startsWith("merge")) { d.files.get(target.name).putAll(d.files.get(b.name)); target.lastHash = Util.hex(6); }
                        if (op.equals("commit")) b.lastHash = Util.hex(6);
                        return Json.obj("data", Json.obj("operation", op, "branchName", target.name, "lastHash", target.lastHash));
                    });
        }
        Main.route("POST", BD + "/github/connect", "connectGithub", "GitHub", "Connect the deployment to a repository")
                .body("{installationId!:integer, repository!:string, branch:string}", true).resp(200, "{data!:{connected!:boolean, repository!:string, branch!:string}}").h(r -> {
                    Store.Deployment d = Api.dep(r); dev(r);
                    String repo = (String) r.b().get("repository");
                    if (!repo.matches("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")) throw ApiError.invalid("repository must be owner/name");
                    d.s.put("creationMethod", "github");
                    return Json.obj("data", Json.obj("connected", true, "repository", repo, "branch", r.b().get("branch") == null ? "main" : r.b().get("branch")));
                });
        Main.route("GET", "/api/v1/github/status", "getGithubStatus", "GitHub", "GitHub app status").resp(200, "{data!:{installed!:boolean, account!:string?, installationCount!:integer}}")
                .h(r -> Json.obj("data", Json.obj("installed", true, "account", "acme-analytics", "installationCount", 1L)));
        Main.route("GET", "/api/v1/github/installations", "listGithubInstallations", "GitHub", "GitHub installations").q(CURSOR).resp(200, listDsl("{id!:string, account!:string, type!:string}"))
                .h(r -> page(List.of(Json.obj("id", "41872", "account", "acme-analytics", "type", "Organization")), r));
        Main.route("GET", "/api/v1/github/installations/{installationId}/repositories", "listGithubRepositories", "GitHub", "Repositories of an installation").q(CURSOR)
                .resp(200, listDsl("{fullName!:string, private!:boolean, defaultBranch!:string}")).h(r -> {
                    if (!r.p("installationId").equals("41872")) throw ApiError.notFound("installation " + r.p("installationId"));
                    return page(List.of(Json.obj("fullName", "acme-analytics/semantic-layer", "private", true, "defaultBranch", "main"), Json.obj("fullName", "acme-analytics/finance-models", "private", true, "defaultBranch", "master")), r);
                });
        Main.route("GET", "/api/v1/github/repositories/{owner}/{repo}/branches", "listGithubBranches", "GitHub", "Branches of a repository").q(CURSOR).resp(200, listDsl("{name!:string, sha!:string}")).h(r -> {
            if (!r.p("owner").equals("acme-analytics")) throw ApiError.notFound("repository");
            return page(List.of(Json.obj("name", "main", "sha", Util.sha1(r.p("repo"))), Json.obj("name", "develop", "sha", Util.sha1(r.p("repo") + "d"))), r);
        });

        // ---------- dbt sync ----------
        String DD = "/api/v1/deployments/{deploymentId}/dbt-sync";
        Main.route("POST", DD, "startDbtSync", "dbt", "Start a dbt sync").body("{branchName:string, ref:string}", false).resp(202, "{data!:$DbtSyncJob}").h(r -> {
            Store.Deployment d = Api.dep(r); dev(r);
            String bn = r.b().get("branchName") == null ? "main" : (String) r.b().get("branchName");
            branch(d, bn);
            Map<String, Object> j = DBT.add(Json.obj("deploymentId", d.id, "status", "queued", "trigger", "manual", "branchName", bn, "ref", r.b().get("ref") == null ? bn : r.b().get("ref"), "startedAt", null, "finishedAt", null, "createdBy", r.user.id));
            return new Resp(202, Json.obj("data", Json.deepCopy(j)));
        });
        Main.route("GET", DD, "listDbtSyncs", "dbt", "dbt sync run history").q(cur("status:(queued|running|succeeded|failed|cancelled)", "trigger:(manual|schedule|webhook)")).resp(200, listDsl("$DbtSyncJob")).h(r -> {
            Store.Deployment d = Api.dep(r);
            List<Object> l = new ArrayList<>();
            List<Map<String, Object>> rows = new ArrayList<>(DBT.rows.values()); Collections.reverse(rows);
            for (Map<String, Object> m : rows) if (m.get("deploymentId").equals(d.id) && (r.q.get("status") == null || r.q.get("status").equals(m.get("status"))) && (r.q.get("trigger") == null || r.q.get("trigger").equals(m.get("trigger")))) l.add(Json.deepCopy(m));
            return page(l, r);
        });
        Main.route("GET", DD + "/{syncJobId}", "getDbtSync", "dbt", "Poll a dbt sync").resp(200, "{data!:$DbtSyncJob}").h(r -> Json.obj("data", Json.deepCopy(job(r))));
        Main.route("DELETE", DD + "/{syncJobId}", "cancelDbtSync", "dbt", "Cancel a dbt sync").resp(200, "{data!:$DbtSyncJob}").err(409).h(r -> {
            Map<String, Object> j = job(r); dev(r);
            if (!List.of("queued", "running").contains(j.get("status"))) throw new ApiError(409, "not_cancellable", "sync job is already " + j.get("status"));
            j.put("status", "cancelled"); j.put("finishedAt", Util.now());
            return Json.obj("data", Json.deepCopy(j));
        });
        Main.route("GET", DD + "/{syncJobId}/result", "getDbtSyncResult", "dbt", "Result of a dbt sync").resp(200, "{data!:{syncJobId!:integer, status!:string, filesChanged!:[string], summary!:string}}").err(409).h(r -> {
            Map<String, Object> j = job(r);
            if (!List.of("succeeded", "failed", "cancelled").contains(j.get("status"))) throw new ApiError(409, "not_finished", "sync job is still " + j.get("status"));
            return Json.obj("data", Json.obj("syncJobId", j.get("id"), "status", j.get("status"), "filesChanged", j.get("status").equals("succeeded") ? Json.arr("model/cubes/dbt_orders.yml") : Json.arr(), "summary", "dbt sync " + j.get("status")));
        });
        Main.route("GET", DD + "/{syncJobId}/logs", "getDbtSyncLogs", "dbt", "Log entries of a dbt sync").q(CURSOR).resp(200, listDsl("{timestamp!:datetime, level!:string, message!:string}")).h(r -> {
            Map<String, Object> j = job(r);
            List<Object> l = new ArrayList<>();
            String[] msgs = {"fetching manifest", "parsing 42 models", "generating cubes", "job " + j.get("status")};
            for (int k = 0; k < msgs.length; k++) l.add(Json.obj("timestamp", Store.t(50, k), "level", k == 3 && j.get("status").equals("failed") ? "error" : "info", "message", msgs[k]));
            return page(l, r);
        });

        // ---------- workspace ----------
        String W = "/api/v1/deployments/{deploymentId}";
        Main.route("POST", W + "/workspace/bulk-delete", "bulkDeleteWorkspaceItems", "Workspace", "Delete workspace items in bulk with per-item failures")
                .body("{items!:[$WorkspaceItemRef]<=100}", true).resp(200, "{deleted!:[$WorkspaceItemRef], failed!:[$ItemDeleteFailure]}").h(Extra::bulkDelete);
        Main.route("GET", W + "/folders", "listFolders", "Workspace", "List folders one level deep (root or children of parentId)")
                .q(cur("parentId:integer>=0?")).resp(200, listDsl("$Folder")).h(r -> {
                    Store.Deployment d = Api.dep(r);
                    Long parent = r.q.get("parentId") == null || r.qLong("parentId") == 0 ? null : r.qLong("parentId");
                    List<Store.Item> fs = new ArrayList<>();
                    for (Store.Item i : Store.ITEMS.values()) if (i.dep == d.id && i.type.equals("FOLDER") && Objects.equals(i.folderId, parent) && Store.level(r.user, i) >= Store.READ) fs.add(i);
                    fs.sort(Comparator.comparingInt((Store.Item i) -> i.position).thenComparingLong(i -> i.id));
                    List<Object> l = new ArrayList<>(); for (Store.Item i : fs) l.add(folder(i));
                    return page(l, r);
                });
        Main.route("POST", W + "/folders", "createFolder", "Workspace", "Create a folder").body("{name!:string<=255, parentId:integer>=0?, position:integer>=0}", true).resp(200, "$Folder").h(r -> {
            Store.Deployment d = Api.dep(r);
            Api.needRank(r, 1, "create folders");
            Long parent = (Long) r.b().get("parentId");
            if (((String) r.b().get("name")).isBlank()) throw ApiError.invalid("name must not be empty");
            if (parent != null) {
                Store.Item p = item(d, parent, "FOLDER");
                if (!Store.canEditFolder(r.user, parent)) throw ApiError.forbidden("no edit access to the parent folder");
                if (Api.depth(p) + 2 > Api.MAX_FOLDER_DEPTH) throw ApiError.bad("folder nesting would exceed the maximum depth of " + Api.MAX_FOLDER_DEPTH);
            }
            Store.Item f = Api.newItem(d.id, "FOLDER", (String) r.b().get("name"), parent, r.user.id);
            f.position = r.b().get("position") == null ? 0 : (int) Math.min((Long) r.b().get("position"), Integer.MAX_VALUE);
            return folder(f);
        });
        Main.route("DELETE", W + "/folders/{folderId}", "deleteFolder", "Workspace", "Delete a folder (its direct contents move to the root)").resp(200, DELETED).h(r -> {
            Store.Deployment d = Api.dep(r);
            deleteOne(r, d, "FOLDER", r.pid("folderId"));
            return deleted("folder", r.pid("folderId"));
        });
        Main.route("POST", W + "/workbooks", "createWorkbook", "Workbooks", "Create a workbook").body("{name!:string<=255, folderId:integer>=0?, meta:object}", true).resp(200, "$Workbook").h(r -> {
            Store.Deployment d = Api.dep(r);
            Api.needRank(r, 1, "create workbooks (AI BI User role or higher required)");
            Long f = (Long) r.b().get("folderId");
            if (f != null) { item(d, f, "FOLDER"); if (!Store.canEditFolder(r.user, f)) throw ApiError.forbidden("no edit access to the destination folder"); }
            if (((String) r.b().get("name")).isBlank()) throw ApiError.invalid("name must not be empty");
            Api.checkLimit(d);
            Store.Item w = Api.newItem(d.id, "WORKBOOK", (String) r.b().get("name"), f, r.user.id);
            if (r.b().get("meta") != null) { Map<String, Object> meta = (Map<String, Object>) Json.deepCopy(r.b().get("meta")); if (meta.containsKey("dashboardDraft")) { meta.put("dashboardDraft", Api.normalizeConfig(meta.get("dashboardDraft"), "$.meta.dashboardDraft")); w.draft = (Map<String, Object>) Json.deepCopy(meta.get("dashboardDraft")); } w.meta.putAll(meta); }
            w.fav = false;
            return Api.wb(w);
        });
        Main.route("DELETE", W + "/workbooks/{workbookId}", "deleteWorkbook", "Workbooks", "Delete a workbook").resp(200, DELETED).h(r -> {
            Store.Deployment d = Api.dep(r);
            deleteOne(r, d, "WORKBOOK", r.pid("workbookId"));
            return deleted("workbook", r.pid("workbookId"));
        });
        Main.route("GET", W + "/reports", "listReports", "Reports", "List reports")
                .q(cur("folderId:integer>=0?", "externalWorkbookId:string", "search:string", "sortBy:(createdAt|updatedAt|lastViewedAt|name)"))
                .desc("Sorted descending by the sortBy field (name ascending). Cursor parameters are rejected (422) together with sortBy=lastViewedAt.")
                .resp(200, listDsl("$Report")).h(r -> {
                    Store.Deployment d = Api.dep(r);
                    String sort = r.q.get("sortBy") == null ? "updatedAt" : r.qStr("sortBy");
                    if (sort.equals("lastViewedAt") && (r.q.get("after") != null || r.q.get("first") != null)) throw ApiError.invalid("cursor pagination is not available when sorting by lastViewedAt");
                    List<Store.Item> rs = new ArrayList<>();
                    Long fid = r.q.get("folderId") == null || r.qLong("folderId") == 0 ? null : r.qLong("folderId");
                    for (Store.Item i : Store.ITEMS.values()) {
                        if (i.dep != d.id || !i.type.equals("REPORT") || Store.level(r.user, i) < Store.READ) continue;
                        if (r.has("folderId") && !Objects.equals(i.folderId, fid)) continue;
                        if (r.q.get("search") != null && !Util.containsCI(i.name, r.qStr("search"))) continue;
                        if (r.q.get("externalWorkbookId") != null && i.placements.stream().noneMatch(p -> r.q.get("externalWorkbookId").equals(p.get("externalWorkbookId")))) continue;
                        rs.add(i);
                    }
                    Comparator<Store.Item> cmp = sort.equals("name") ? Comparator.comparing((Store.Item i) -> i.name.toLowerCase(Locale.ROOT))
                            : sort.equals("createdAt") ? Comparator.comparing((Store.Item i) -> i.createdAt).reversed()
                            : sort.equals("lastViewedAt") ? Comparator.comparing((Store.Item i) -> i.lastViewedAt == null ? "" : i.lastViewedAt).reversed()
                            : Comparator.comparing((Store.Item i) -> i.updatedAt).reversed();
                    rs.sort(cmp.thenComparingLong(i -> i.id));
                    List<Object> l = new ArrayList<>(); for (Store.Item i : rs) l.add(report(i));
                    return page(l, r);
                });
        Main.route("PUT", W + "/reports/by-public-id/{publicId}", "upsertReportByPublicId", "Reports", "Create or update a report by public id")
                .body("{name:string<=255, title:string?, description:string?, kind:(vega|table|kpi|html|map)?, sqlQuery:string?, pythonCode:string?, spec:any, workbookId:integer?, folderId:integer?}", true)
                .resp(200, "$Report").h(r -> {
                    Store.Deployment d = Api.dep(r);
                    String pid = r.p("publicId").trim();
                    if (pid.isEmpty() || pid.length() > 120) throw ApiError.invalid("publicId must be 1..120 characters");
                    Map<String, Object> b = r.b();
                    Store.Item rep = null;
                    for (Store.Item i : Store.ITEMS.values()) if (i.dep == d.id && i.type.equals("REPORT") && pid.equals(i.publicId)) rep = i;
                    Store.Item wbk = b.get("workbookId") == null ? null : Api.workbookIn(d, (Long) b.get("workbookId"));
                    if (b.get("folderId") != null) item(d, (Long) b.get("folderId"), "FOLDER");
                    if (rep == null) {
                        Api.needRank(r, 1, "create reports");
                        Long f = b.get("folderId") != null ? (Long) b.get("folderId") : wbk != null ? wbk.folderId : null;
                        if (!Store.canEditFolder(r.user, f)) throw ApiError.forbidden("no edit access to the destination folder");
                        rep = Api.newItem(d.id, "REPORT", b.get("name") == null ? pid : (String) b.get("name"), f, r.user.id);
                        rep.publicId = pid; rep.workbookId = wbk == null ? null : wbk.id; rep.kind = "table";
                    } else if (Store.level(r.user, rep) < Store.EDIT) throw ApiError.forbidden("no edit access to report " + rep.id);
                    if (b.get("name") != null) rep.name = (String) b.get("name");
                    if (b.containsKey("title")) rep.title = (String) b.get("title");
                    if (b.containsKey("description")) rep.description = (String) b.get("description");
                    if (b.containsKey("kind")) rep.kind = (String) b.get("kind");
                    if (b.containsKey("sqlQuery")) rep.sqlQuery = (String) b.get("sqlQuery");
                    if (b.containsKey("pythonCode")) rep.pythonCode = (String) b.get("pythonCode");
                    if (b.containsKey("spec")) rep.spec = Json.deepCopy(b.get("spec"));
                    if (b.containsKey("workbookId")) rep.workbookId = wbk == null ? null : wbk.id;
                    if (b.containsKey("folderId")) rep.folderId = (Long) b.get("folderId");
                    rep.updatedAt = Util.now();
                    return report(rep);
                });
        String PLACEMENT = "placementId:string, externalWorkbookId:string<=200, sheetName:string<=200, anchorCell:string<=20";
        Main.route("PUT", W + "/reports/{reportId}/connect-workbook", "connectReportToSpreadsheet", "Reports", "Place a report in a spreadsheet")
                .body("{externalWorkbookId!:string<=200, sheetName!:string<=200, anchorCell!:string<=20}", true).resp(200, "{data!:$Placement}").h(r -> {
                    Store.Item rep = reportFor(r);
                    Map<String, Object> b = r.b();
                    if (!((String) b.get("anchorCell")).matches("[A-Za-z]{1,3}[1-9][0-9]{0,6}")) throw ApiError.invalid("anchorCell must be an A1-style cell reference");
                    Map<String, Object> p = findPlacement(rep, b, false);
                    if (p == null) {
                        p = Json.obj("placementId", "plc_" + Util.b62(12), "externalWorkbookId", b.get("externalWorkbookId"), "sheetName", b.get("sheetName"), "anchorCell", ((String) b.get("anchorCell")).toUpperCase(Locale.ROOT));
                        p.put("refreshedAt", null);
                        rep.placements.add(p);
                    }
                    return Json.obj("data", Json.deepCopy(p));
                });
        Main.route("DELETE", W + "/reports/{reportId}/connect-workbook", "disconnectReportFromSpreadsheet", "Reports", "Remove a report placement (by placementId, or externalWorkbookId + sheetName + anchorCell)")
                .body("{" + PLACEMENT + "}", true).resp(200, "{data!:$Placement}").h(r -> {
                    Store.Item rep = reportFor(r);
                    Map<String, Object> p = findPlacement(rep, r.b(), true);
                    rep.placements.remove(p);
                    return Json.obj("data", Json.deepCopy(p));
                });
        Main.route("PUT", W + "/reports/{reportId}/refresh", "refreshReportPlacement", "Reports", "Refresh a report placement")
                .body("{" + PLACEMENT + "}", true).resp(200, "{data!:$Placement}").h(r -> {
                    Store.Item rep = reportFor(r);
                    Map<String, Object> p = findPlacement(rep, r.b(), true);
                    p.put("refreshedAt", Util.now());
                    return Json.obj("data", Json.deepCopy(p));
                });
        Main.route("GET", W + "/workbooks/{workbookId}/embed-access", "getEmbedAccess", "Embedding", "Dashboard access per embed tenant")
                .resp(200, "{data!:{workbookId!:integer, allEmbedUsers!:(read|none), tenants!:[{tenantId!:integer, action!:(read|none)}]}}").h(r -> embedAccess(Api.workbookIn(Api.dep(r), r.pid("workbookId"))));
        Main.route("PUT", W + "/workbooks/{workbookId}/embed-access", "setEmbedAccess", "Embedding", "Change dashboard access per embed tenant or for all embed users")
                .body("{action!:(read|none), tenantId:integer?}", true)
                .resp(200, "{data!:{workbookId!:integer, allEmbedUsers!:(read|none), tenants!:[{tenantId!:integer, action!:(read|none)}]}}").h(r -> {
                    Store.Item w = Api.workbookIn(Api.dep(r), r.pid("workbookId"));
                    if (Store.level(r.user, w) < Store.MANAGE) throw ApiError.forbidden("manage access to the workbook is required");
                    Long t = (Long) r.b().get("tenantId");
                    if (t != null) row(TENANTS, t, m -> true);
                    w.embedAccess.put(t == null ? "*" : String.valueOf(t), (String) r.b().get("action"));
                    return embedAccess(w);
                });
        Main.route("PATCH", "/api/v1/embed/dashboard/{publicId}", "setDashboardEmbedding", "Embedding", "Enable or disable signed embedding of a published dashboard")
                .body("{allowEmbed!:boolean}", true).resp(200, "{data!:$Dashboard}").h(r -> {
                    Store.Item w = byPublicId(r);
                    if (Store.level(r.user, w) < Store.MANAGE) throw ApiError.forbidden("manage access to the workbook is required");
                    w.published.put("allowEmbed", r.b().get("allowEmbed"));
                    return Json.obj("data", Json.deepCopy(w.published));
                });
        Main.route("POST", "/api/v1/embed/dashboard/{publicId}/python-run", "runDashboardPython", "Embedding", "Run a Python report with dashboard filters")
                .body("{reportId!:integer, filters:[{member!:string, operator!:string, values:[string]}]}", true)
                .resp(200, "{data!:{reportId!:integer, status!:(succeeded), columns!:[string], rows!:[[any]], appliedFilters!:integer}}").h(r -> {
                    Store.Item w = byPublicId(r);
                    long rid = (Long) r.b().get("reportId");
                    boolean ok = ((List<Object>) w.published.get("reportSnapshots")).stream().anyMatch(s -> ((Map<String, Object>) s).get("reportId").equals(rid));
                    if (!ok) throw ApiError.notFound("report " + rid + " in dashboard");
                    List<Object> f = (List<Object>) r.b().get("filters");
                    return Json.obj("data", Json.obj("reportId", rid, "status", "succeeded", "columns", Json.arr("status", "orders"),
                            "rows", Json.arr(Json.arr("completed", 1280L), Json.arr("shipped", 312L)), "appliedFilters", f == null ? 0L : (long) f.size()));
                });

        // ---------- embed tenants ----------
        crud("/api/v1/embed-tenants", "tenantId", "Embedding", "EmbedTenant", "EmbedTenant", "{name!:string<=200, externalId!:string<=200, creatorMode:boolean}",
                "{name:string<=200, externalId:string<=200, creatorMode:boolean}", "PATCH", TENANTS, false, Extra::admin, "search:string");
        String ET = "/api/v1/embed-tenants/{tenantId}";
        Main.route("GET", ET + "/users", "listEmbedTenantUsers", "Embedding", "Users of an embed tenant").q(cur("search:string")).resp(200, listDsl("$EmbedUser")).h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id");
            List<Object> l = new ArrayList<>();
            for (Map<String, Object> m : ETUSERS.rows.values()) if (m.get("tenantId").equals(t) && (r.q.get("search") == null || Util.containsCI(Util.str(m.get("email")), r.qStr("search")) || Util.containsCI(Util.str(m.get("name")), r.qStr("search")))) l.add(Json.deepCopy(m));
            return page(l, r);
        });
        Main.route("POST", ET + "/users", "createEmbedTenantUser", "Embedding", "Add a user to an embed tenant").body("{externalId!:string<=200, email:string?, name:string?}", true).resp(200, "$EmbedUser").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            Map<String, Object> m = (Map<String, Object>) Json.deepCopy(r.b()); m.put("tenantId", t); fill("EmbedUser", m);
            return Json.deepCopy(ETUSERS.add(ts(m)));
        });
        Main.route("PATCH", ET + "/users/{embedUserId}", "updateEmbedTenantUser", "Embedding", "Update an embed tenant user").body("{email:string?, name:string?}", true).resp(200, "$EmbedUser").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            return Json.deepCopy(merge(row(ETUSERS, r.pid("embedUserId"), m -> m.get("tenantId").equals(t)), r.b()));
        });
        Main.route("DELETE", ET + "/users/{embedUserId}", "deleteEmbedTenantUser", "Embedding", "Remove an embed tenant user").resp(200, DELETED).h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            Map<String, Object> u = row(ETUSERS, r.pid("embedUserId"), m -> m.get("tenantId").equals(t));
            ETUSERS.rows.remove((Long) u.get("id"));
            for (Map<String, Object> g : EGROUPS.rows.values()) ((List<Object>) g.get("memberIds")).remove(u.get("id"));
            return deleted("embed user", u.get("id"));
        });
        Main.route("GET", ET + "/groups", "listEmbedTenantGroups", "Embedding", "Groups of an embed tenant").q(cur("search:string")).resp(200, listDsl("$EmbedGroup")).h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id");
            List<Object> l = new ArrayList<>();
            for (Map<String, Object> m : EGROUPS.rows.values()) if (m.get("tenantId").equals(t) && (r.q.get("search") == null || Util.containsCI((String) m.get("name"), r.qStr("search")))) l.add(Json.deepCopy(m));
            return page(l, r);
        });
        Main.route("POST", ET + "/groups", "createEmbedTenantGroup", "Embedding", "Create an embed tenant group").body("{name!:string<=200}", true).resp(200, "$EmbedGroup").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            return Json.deepCopy(EGROUPS.add(ts(Json.obj("tenantId", t, "name", r.b().get("name"), "memberIds", Json.arr()))));
        });
        Main.route("PATCH", ET + "/groups/{groupId}", "updateEmbedTenantGroup", "Embedding", "Rename an embed tenant group").body("{name!:string<=200}", true).resp(200, "$EmbedGroup").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            return Json.deepCopy(merge(row(EGROUPS, r.pid("groupId"), m -> m.get("tenantId").equals(t)), r.b()));
        });
        Main.route("DELETE", ET + "/groups/{groupId}", "deleteEmbedTenantGroup", "Embedding", "Delete an embed tenant group").resp(200, DELETED).h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            Map<String, Object> g = row(EGROUPS, r.pid("groupId"), m -> m.get("tenantId").equals(t));
            EGROUPS.rows.remove((Long) g.get("id"));
            return deleted("embed group", g.get("id"));
        });
        Main.route("POST", ET + "/groups/{groupId}/members", "addEmbedGroupMember", "Embedding", "Add a member to an embed group").body("{userId!:integer}", true).resp(200, "$EmbedGroup").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            Map<String, Object> g = row(EGROUPS, r.pid("groupId"), m -> m.get("tenantId").equals(t));
            Object uid = r.b().get("userId");
            row(ETUSERS, (Long) uid, m -> m.get("tenantId").equals(t));
            List<Object> mem = (List<Object>) g.get("memberIds");
            if (!mem.contains(uid)) mem.add(uid);
            g.put("updatedAt", Util.now());
            return Json.deepCopy(g);
        });
        Main.route("DELETE", ET + "/groups/{groupId}/members/{userId}", "removeEmbedGroupMember", "Embedding", "Remove a member from an embed group").resp(200, "$EmbedGroup").h(r -> {
            long t = (Long) row(TENANTS, r.pid("tenantId"), m -> true).get("id"); admin(r);
            Map<String, Object> g = row(EGROUPS, r.pid("groupId"), m -> m.get("tenantId").equals(t));
            if (!((List<Object>) g.get("memberIds")).remove((Object) r.pid("userId"))) throw ApiError.notFound("member " + r.p("userId"));
            return Json.deepCopy(g);
        });

        // ---------- users, groups, attributes ----------
        Main.route("GET", "/api/v1/users", "listUsers", "Users", "List users").q(cur("search:string", "status:(active|deactivated)")).resp(200, listDsl("$User")).h(r -> {
            List<Object> l = new ArrayList<>();
            for (Store.User u : Store.USERS.values()) {
                String s = r.qStr("search");
                if (s != null && !Util.containsCI(u.email, s) && !Util.containsCI(u.firstName, s) && !Util.containsCI(u.lastName, s)) continue;
                if (r.q.get("status") != null && !r.q.get("status").equals(u.active ? "active" : "deactivated")) continue;
                l.add(userJson(u));
            }
            return page(l, r);
        });
        Main.route("POST", "/api/v1/users", "createUser", "Users", "Invite a user").body("{email!:string<=254, firstName:string?, lastName:string?, role:(VIEWER|AI_BI_USER|DEVELOPER|ADMIN)}", true).resp(200, "$User").err(409).h(r -> {
            admin(r);
            String e = ((String) r.b().get("email")).trim().toLowerCase(Locale.ROOT);
            if (!e.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) throw ApiError.invalid("email is not a valid address");
            if (Store.USERS.values().stream().anyMatch(u -> u.email.equalsIgnoreCase(e))) throw new ApiError(409, "user_exists", "a user with this email already exists");
            Store.User u = Store.user(r.b().get("role") == null ? "VIEWER" : (String) r.b().get("role"), e, (String) r.b().get("firstName"), (String) r.b().get("lastName"));
            u.createdAt = Util.now();
            Store.audit("User invited", r.user, null, Json.obj("email", e));
            return userJson(u);
        });
        Main.route("GET", "/api/v1/users/{userId}", "getUser", "Users", "Get a user").resp(200, "$User").h(r -> userJson(userFor(r)));
        Main.route("PUT", "/api/v1/users/{userId}", "updateUser", "Users", "Update a user").body("{firstName:string?, lastName:string?, role:(VIEWER|AI_BI_USER|DEVELOPER|ADMIN), status:(active|deactivated)}", true).resp(200, "$User").h(r -> {
            Store.User u = userFor(r); admin(r);
            Map<String, Object> b = r.b();
            if (b.containsKey("firstName")) u.firstName = (String) b.get("firstName");
            if (b.containsKey("lastName")) u.lastName = (String) b.get("lastName");
            if (b.get("role") != null) { if (u == r.user && !b.get("role").equals("ADMIN")) throw ApiError.invalid("you cannot demote yourself"); u.role = (String) b.get("role"); }
            if (b.get("status") != null) { if (u == r.user && b.get("status").equals("deactivated")) throw ApiError.invalid("you cannot deactivate yourself"); u.active = b.get("status").equals("active"); }
            return userJson(u);
        });
        Main.route("POST", "/api/v1/users/bulk", "bulkUpdateUsers", "Users", "Bulk user actions with per-user failures")
                .body("{action!:(DEACTIVATE|ACTIVATE|DELETE), userIds!:[integer]<=100}", true)
                .resp(200, "{succeeded!:[integer], failed!:[{userId!:integer, error!:{message!:string, status!:integer}}]}").h(r -> {
                    admin(r);
                    String a = (String) r.b().get("action");
                    List<Object> ok = new ArrayList<>(), bad = new ArrayList<>();
                    for (Object o : new LinkedHashSet<>((List<Object>) r.b().get("userIds"))) {
                        Store.User u = Store.USERS.get((Long) o);
                        if (u == null) { bad.add(Json.obj("userId", o, "error", Json.obj("message", "user not found", "status", 404L))); continue; }
                        if (u == r.user) { bad.add(Json.obj("userId", o, "error", Json.obj("message", "cannot apply " + a + " to yourself", "status", 400L))); continue; }
                        if (a.equals("DELETE")) { Store.USERS.remove(u.id); Store.KEYS.values().removeIf(x -> x == u); }
                        else u.active = a.equals("ACTIVATE");
                        ok.add(o);
                    }
                    return Json.obj("succeeded", ok, "failed", bad);
                });
        crud("/api/v1/groups", "groupId", "Users", "Group", "Group", "{name!:string<=200, description:string?, memberIds:[integer]}", "{name:string<=200, description:string?, memberIds:[integer]}", "PUT", GROUPS, false, Extra::admin, "search:string");
        crud("/api/v1/user-attributes/", "attributeId", "Users", "UserAttribute", "UserAttribute",
                "{name!:string<=100, type!:(string|number|boolean|string_array|number_array), displayName:string?, defaultValue:any}", "{displayName:string?, defaultValue:any}", "PUT", ATTRS, false, Extra::admin);
        Main.route("GET", "/api/v1/user-attribute-values/{userId}", "getUserAttributeValues", "Users", "Attribute values of a user").resp(200, "{data!:{userId!:integer, values!:object}}")
                .h(r -> Json.obj("data", Json.obj("userId", userFor(r).id, "values", Json.deepCopy(userFor(r).attrs))));
        Main.route("PUT", "/api/v1/user-attribute-values/{userId}", "setUserAttributeValues", "Users", "Set attribute values of a user (null removes a value)")
                .body("{values!:object}", true).resp(200, "{data!:{userId!:integer, values!:object}}").h(r -> {
                    Store.User u = userFor(r); admin(r);
                    Map<String, Object> vals = (Map<String, Object>) r.b().get("values");
                    for (Map.Entry<String, Object> e : vals.entrySet()) {
                        Map<String, Object> at = ATTRS.rows.values().stream().filter(a -> a.get("name").equals(e.getKey())).findFirst().orElseThrow(() -> ApiError.invalid("unknown user attribute '" + e.getKey() + "'"));
                        if (e.getValue() != null && !typeOk((String) at.get("type"), e.getValue())) throw ApiError.invalid("value of '" + e.getKey() + "' must be of type " + at.get("type"));
                    }
                    for (Map.Entry<String, Object> e : vals.entrySet()) { if (e.getValue() == null) u.attrs.remove(e.getKey()); else u.attrs.put(e.getKey(), Json.deepCopy(e.getValue())); }
                    return Json.obj("data", Json.obj("userId", u.id, "values", Json.deepCopy(u.attrs)));
                });

        // ---------- integrations ----------
        crud("/api/v1/oauth-integrations", "integrationId", "Integrations", "OAuthIntegration", "OAuthIntegration",
                "{name!:string<=200, provider!:string<=100, clientId!:string<=500, clientSecret!:string, scopes:[string], enabled:boolean}",
                "{name:string<=200, clientId:string<=500, clientSecret:string, scopes:[string], enabled:boolean}", "PUT", OAUTH, false, Extra::admin);
        crud("/api/v1/user-oauth-tokens", "tokenId", "Integrations", "UserOAuthToken", "UserOAuthToken",
                "{integrationId!:integer, accessToken!:string, refreshToken:string, expiresAt:datetime?, scopes:[string]}", null, "PUT", UTOK, false, r -> {});
        crud("/api/v1/oidc-token-configs", "configId", "Integrations", "OidcTokenConfig", "OidcTokenConfig",
                "{name!:string<=200, issuer!:string<=500, audience!:string<=500, claimMappings:object, enabled:boolean}",
                "{name:string<=200, issuer:string<=500, audience:string<=500, claimMappings:object, enabled:boolean}", "PUT", OIDC, false, Extra::admin);

        // ---------- notifications ----------
        String NB = "{name!:string<=200, workbookId:integer?, schedule!:{cron!:string<=100, timezone:string}, channel!:(email|slack|webhook), recipients!:[string]<=50, timeGrain:(hour|day|week|month|quarter|year)?, enabled:boolean, filters:[$NotificationFilter]<=20}";
        crud("/api/v1/deployments/{deploymentId}/notifications", "notificationId", "Notifications", "Notification", "Notification", NB,
                NB.replace("!", ""), "PUT", NOTIF, true, r -> Api.needRank(r, 1, "manage notifications"));
    }

    // ---------- helpers ----------
    static int count(String s, char c) { int n = 0; for (char x : s.toCharArray()) if (x == c) n++; return n; }
    static void checkName(String n) { if (n.isEmpty() || n.startsWith("/") || n.contains("..") || n.contains("\\") || n.contains("\0")) throw ApiError.invalid("invalid file name '" + n + "'"); }
    static Store.Branch branch(Store.Deployment d, String name) {
        for (Store.Branch b : d.branches) if (b.name.equals(name)) return b;
        throw ApiError.notFound("branch " + name);
    }
    static Store.Branch branchFor(R r, Store.Deployment d, boolean write) {
        Object bn = r.q.get("branchName") != null ? r.q.get("branchName") : r.b().get("branchName");
        Store.Branch b;
        if (bn == null) b = branch(d, write && d.devMode.containsKey(r.user.id) ? d.devMode.get(r.user.id) : "main");
        else b = branch(d, (String) bn);
        if (write && !b.name.equals(d.devMode.get(r.user.id))) throw new ApiError(409, "not_in_dev_mode", "files can only be written on your active dev-mode branch");
        d.files.computeIfAbsent(b.name, k -> new TreeMap<>());
        return b;
    }
    static List<Object> fileList(Store.Deployment d, Store.Branch b) {
        List<Object> l = new ArrayList<>();
        for (Map.Entry<String, String> f : d.files.get(b.name).entrySet())
            l.add(Json.obj("fileName", f.getKey(), "content", f.getValue(), "size", (long) f.getValue().length(), "hash", Util.sha1(f.getValue())));
        return l;
    }
    static Map<String, Object> upload(Store.Deployment d, String token) {
        for (Map<String, Object> u : UPLOADS.rows.values()) if (u.get("token").equals(token) && u.get("deploymentId").equals(d.id)) return u;
        throw ApiError.notFound("upload " + token);
    }
    static Map<String, Object> job(R r) {
        long dep = Api.dep(r).id;
        return row(DBT, r.pid("syncJobId"), m -> m.get("deploymentId").equals(dep));
    }
    static Map<String, Object> folder(Store.Item i) {
        Map<String, Object> m = Json.obj("id", i.id, "name", i.name, "position", (long) i.position, "deploymentId", i.dep, "createdAt", i.createdAt, "updatedAt", i.updatedAt,
                "type", "FOLDER", "createdBy", i.ownerId, "folderPath", Api.folderPath(i));
        m.put("parentId", i.folderId); m.put("user", Api.owner(i.ownerId));
        return m;
    }
    static Map<String, Object> report(Store.Item i) {
        Map<String, Object> m = Json.obj("id", i.id, "publicId", i.publicId, "deploymentId", i.dep, "name", i.name, "createdAt", i.createdAt, "updatedAt", i.updatedAt, "createdBy", i.ownerId,
                "placements", Json.deepCopy(i.placements));
        m.put("workbookId", i.workbookId); m.put("folderId", i.folderId); m.put("title", i.title); m.put("description", i.description); m.put("kind", i.kind);
        m.put("sqlQuery", i.sqlQuery); m.put("pythonCode", i.pythonCode); m.put("spec", Json.deepCopy(i.spec)); m.put("lastViewedAt", i.lastViewedAt);
        return m;
    }
    static Store.Item reportFor(R r) {
        Store.Item rep = item(Api.dep(r), r.pid("reportId"), "REPORT");
        if (Store.level(r.user, rep) < Store.READ) throw ApiError.forbidden("no read access to report " + rep.id);
        return rep;
    }
    static Map<String, Object> findPlacement(Store.Item rep, Map<String, Object> b, boolean must) {
        if (b.get("placementId") != null) {
            for (Map<String, Object> p : rep.placements) if (p.get("placementId").equals(b.get("placementId"))) return p;
            if (must) throw ApiError.notFound("placement " + b.get("placementId"));
            return null;
        }
        if (b.get("externalWorkbookId") == null || b.get("sheetName") == null || b.get("anchorCell") == null)
            throw ApiError.invalid("address the placement by placementId, or by externalWorkbookId + sheetName + anchorCell");
        for (Map<String, Object> p : rep.placements)
            if (p.get("externalWorkbookId").equals(b.get("externalWorkbookId")) && p.get("sheetName").equals(b.get("sheetName")) && ((String) p.get("anchorCell")).equalsIgnoreCase((String) b.get("anchorCell"))) return p;
        if (must) throw ApiError.notFound("placement");
        return null;
    }
    static Map<String, Object> embedAccess(Store.Item w) {
        List<Object> ts = new ArrayList<>();
        for (Map.Entry<String, String> e : w.embedAccess.entrySet()) if (!e.getKey().equals("*")) ts.add(Json.obj("tenantId", Long.parseLong(e.getKey()), "action", e.getValue()));
        return Json.obj("data", Json.obj("workbookId", w.id, "allEmbedUsers", w.embedAccess.getOrDefault("*", "none"), "tenants", ts));
    }
    static Store.Item byPublicId(R r) {
        for (Store.Item i : Store.ITEMS.values())
            if (i.published != null && r.p("publicId").equals(i.published.get("publicId")) && (r.user.scopeDeployment == null || r.user.scopeDeployment == i.dep)) return i;
        throw ApiError.notFound("dashboard " + r.p("publicId"));
    }
    static Map<String, Object> userJson(Store.User u) {
        Map<String, Object> m = Json.obj("id", u.id, "email", u.email, "role", u.role, "status", u.active ? "active" : "deactivated", "groupIds", new ArrayList<>(u.groups), "createdAt", u.createdAt);
        m.put("firstName", u.firstName); m.put("lastName", u.lastName); m.put("picture", u.picture);
        return m;
    }
    static Store.User userFor(R r) {
        Store.User u = Store.USERS.get(r.pid("userId"));
        if (u == null) throw ApiError.notFound("user " + r.p("userId"));
        return u;
    }
    static boolean typeOk(String t, Object v) {
        switch (t) {
            case "string": return v instanceof String;
            case "number": return v instanceof Long || v instanceof Double;
            case "boolean": return v instanceof Boolean;
            case "string_array": return v instanceof List && ((List<Object>) v).stream().allMatch(x -> x instanceof String);
            default: return v instanceof List && ((List<Object>) v).stream().allMatch(x -> x instanceof Long || x instanceof Double);
        }
    }

    static Object bulkDelete(R r) {
        Store.Deployment d = Api.dep(r);
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        List<Object> del = new ArrayList<>(), failed = new ArrayList<>();
        List<Object> items = (List<Object>) r.b().get("items");
        if (items.isEmpty()) throw ApiError.invalid("items must hold 1..100 entries");
        for (Object o : items) {
            Map<String, Object> it = (Map<String, Object>) o;
            String type = (String) it.get("type"); long id = (Long) it.get("id");
            if (!seen.add(type + ":" + id)) continue;
            try { deleteOne(r, d, type, id); del.add(Json.obj("type", type, "id", id)); }
            catch (ApiError e) { failed.add(Json.obj("type", type, "id", id, "error", Json.obj("message", e.getMessage(), "status", (long) e.status))); }
        }
        return Json.obj("deleted", del, "failed", failed);
    }
    static void deleteOne(R r, Store.Deployment d, String type, long id) {
        Store.Item i = Store.ITEMS.get(id);
        if (i == null || i.dep != d.id || !i.type.equals(type)) throw ApiError.notFound(type.toLowerCase(Locale.ROOT) + " " + id);
        int need = type.equals("REPORT") ? Store.EDIT : Store.MANAGE;
        if (Store.level(r.user, i) < need) throw ApiError.forbidden("no " + (need == Store.MANAGE ? "manage" : "edit") + " access to " + type.toLowerCase(Locale.ROOT) + " " + id);
        if (type.equals("FOLDER")) {
            for (Store.Item c : Store.ITEMS.values()) if (c.type.equals("FOLDER") && Objects.equals(c.folderId, id)) throw ApiError.bad("folder " + id + " still has sub-folders");
            for (Store.Item c : Store.ITEMS.values()) if (Objects.equals(c.folderId, id)) { c.folderId = null; c.updatedAt = Util.now(); }
        }
        if (type.equals("WORKBOOK")) Store.ITEMS.values().removeIf(c -> c.type.equals("REPORT") && Objects.equals(c.workbookId, id));
        Store.ITEMS.remove(id);
    }
}
