import java.nio.charset.StandardCharsets;
import java.time.*;
import java.util.*;

final class Api {
    static final int WB_PAGE = 12, ENV_VAR_PAGE = 10, MAX_FIRST = 60, MAX_LIMIT = 200, MAX_FOLDER_DEPTH = 6;

    static void components() {
        Schema.def("Error", "{error!:string, code!:string, status!:integer, requestId!:string, details:[string]}");
        Schema.def("Pagination", "{offset!:integer>=0, limit!:integer>=0, total!:integer>=0}");
        Schema.def("PageInfo", "{hasNextPage!:boolean, hasPreviousPage!:boolean, startCursor:string?, endCursor:string?}");
        Schema.def("Deployment", "{id!:string, name!:string, created_at!:datetime, status!:string, region!:string, cloudProvider!:string, deploymentUrl!:string, creationStep!:string}");
        Schema.def("DeploymentDetail", "{id!:string, name!:string, created_at!:datetime, status!:string, region!:string, cloudProvider!:string, deploymentUrl!:string, creationStep!:string,"
                + " releaseChannel!:string, releaseChannelVersion!:string, releaseChannelVersionHold!:boolean, image!:string, template!:string?, templateVariables!:object,"
                + " defaultLaunchpadViewGroup!:string?, launchpadTabs!:[string], creationMethod!:string, deployMode!:string}");
        Schema.def("ApiCredential", "{type!:string, version!:integer, database!:string, host!:string, port!:integer, url!:string}");
        Schema.def("Environment", "{id!:string, name!:string, type!:(production|staging|development), branch!:string, user!:string, api_credentials!:[$ApiCredential]}");
        Schema.def("EnvironmentList", "{items!:[$Environment], pageInfo!:$PageInfo, data!:[$Environment], pagination!:$Pagination?}");
        Schema.def("Branch", "{id!:integer, name!:string, parentBranch!:string?, lastHash!:string?, isStagingEnvironmentEnabled!:boolean, kind!:(production|shared|personal), createdAt!:datetime}");
        Schema.def("DeploymentVersion", "{releaseChannelVersion!:string, version!:string, releaseChannel!:string, isLatestInChannel!:boolean, isCurrent!:boolean}");
        Schema.def("EnvVar", "{name!:string, value!:string}");
        Schema.def("EnvVarList", "{items!:[$EnvVar], data!:[$EnvVar], pageInfo!:$PageInfo}");
        Schema.def("ResourceOwner", "{id!:integer, email!:string, firstName:string?, picture:string?}");
        Schema.def("FolderPathEntry", "{id!:integer, name!:string}");
        Schema.def("WidgetPosition", "{x!:integer, y!:integer, w!:integer, h!:integer}");
        Schema.def("ResponsiveLayouts", "{lg:$WidgetPosition?, md:$WidgetPosition?, sm:$WidgetPosition?, xs:$WidgetPosition?, xxs:$WidgetPosition?}");
        Schema.def("DashboardWidget", "{id!:string, type!:(CHART|TEXT|FILTER|AI|TIME_GRAIN|PARENT|SPACER|DIVIDER|CONTAINER), position!:$WidgetPosition, responsiveLayouts:$ResponsiveLayouts?, config:object?, style:object?}");
        Schema.def("BreakpointValues", "{lg:integer?, md:integer?, sm:integer?, xs:integer?, xxs:integer?}");
        Schema.def("DashboardLayout", "{breakpoints:$BreakpointValues?, cols:$BreakpointValues?, containerPadding:[integer]?, margin:[integer]?, rowHeight:integer?}");
        Schema.def("DashboardAppSource", "{entry:string<=255?, files:strmap?, html:string?, manifest:{dependencies:strmap?, version:integer?}?}");
        Schema.def("DashboardConfig", "{kind:(CLASSIC|APP)?, title:string?, description:string?, widgets:[$DashboardWidget]?, layout:$DashboardLayout?, settings:object?, theme:object?, app:$DashboardAppSource?}");
        Schema.def("ReportSnapshot", "{id!:integer, reportId!:integer, versionNumber!:integer, kind:(vega|table|kpi|html|map)?, name:string?, title:string?, description:string?,"
                + " sqlQuery:string?, pythonCode:string?, spec:any, meta:object?, isSourceReport:boolean?, fillMissingRows:{member!:string, excludedDimensions:[string]?}?,"
                + " periodComparisons:[{measure!:string, timeDimension!:string, offset!:{amount!:integer, unit!:string}, outputs:[string]?}]?, preferences:{columnFormats:object?}?}");
        Schema.def("Dashboard", "{id!:integer, publicId!:string, deploymentId!:integer, workbookId!:integer, status!:(draft|published|archived), allowEmbed!:boolean,"
                + " config!:$DashboardConfig, versionNumber!:integer, versionId!:integer, reportSnapshots!:[$ReportSnapshot], createdBy:integer?, title:string?,"
                + " description:string?, fromSharedWorkspace:boolean?, restrictDataDownload:boolean?, useBoardDashboards:boolean?}");
        Schema.def("Workbook", "{id!:integer, deploymentId!:integer, name!:string, type!:(FOLDER|WORKBOOK|REPORT), meta!:object, calculatedFields!:object,"
                + " createdAt!:datetime, updatedAt!:datetime, createdBy:integer, userId:number?, user:$ResourceOwner?, folderId:number?, folderPath:[$FolderPathEntry],"
                + " isFavorite:boolean?, slug:string?, dashboardDraft:$DashboardConfig?, dashboardPublished:$DashboardConfig?, publishedDashboard:$Dashboard?}");
        Schema.def("WorkbooksListResponse", "{items!:[$Workbook], data!:[$Workbook], count!:integer>=0?, pageInfo!:$PageInfo?}");
        Schema.def("WorkspaceItemRef", "{type!:(WORKBOOK|REPORT|FOLDER), id!:integer}");
        Schema.def("ItemFailure", "{type!:(WORKBOOK|REPORT|FOLDER), id!:integer, error!:{message!:string, status!:integer}}");
    }

    // ---------------- shared helpers ----------------
    static Store.Deployment dep(R r) {
        long id = r.pid("deploymentId");
        Store.Deployment d = Store.DEPS.get(id);
        if (d == null || (r.user.scopeDeployment != null && r.user.scopeDeployment != id)) throw ApiError.notFound("deployment " + r.p("deploymentId"));
        return d;
    }
    static void needRank(R r, int rank, String what) {
        if (r.user.rank() < rank) throw ApiError.forbidden("role " + r.user.role + " may not " + what);
    }

    static Map<String, Object> cursorPage(List<?> all, R r, int defSize) {
        int start = 0;
        if (r.q.get("after") != null) start = Util.decodeCursor(r.qStr("after")) + 1;
        int size = r.q.get("first") != null ? (int) Math.min(r.qLong("first"), MAX_FIRST) : (defSize < 0 ? Integer.MAX_VALUE : defSize);
        int total = all.size();
        start = Math.min(start, total);
        int end = (int) Math.min((long) start + size, total);
        List<Object> items = new ArrayList<>(all.subList(start, end));
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("items", items);
        m.put("data", new ArrayList<>(items));
        m.put("pageInfo", pageInfo(start, end, total));
        return m;
    }
    static Map<String, Object> pageInfo(int start, int end, int total) {
        Map<String, Object> pi = Json.obj("hasNextPage", end < total, "hasPreviousPage", start > 0);
        pi.put("startCursor", end > start ? Util.cursor(start) : null);
        pi.put("endCursor", end > start ? Util.cursor(end - 1) : null);
        return pi;
    }

    static Map<String, Object> owner(long uid) {
        Store.User u = Store.USERS.get(uid);
        if (u == null) return null;
        Map<String, Object> m = Json.obj("id", u.id, "email", u.email);
        m.put("firstName", u.firstName); m.put("picture", u.picture);
        return m;
    }
    static List<Object> folderPath(Store.Item i) {
        LinkedList<Object> p = new LinkedList<>();
        Long f = i.folderId; int guard = 0;
        while (f != null && guard++ < 64) {
            Store.Item fi = Store.ITEMS.get(f);
            if (fi == null) break;
            p.addFirst(Json.obj("id", fi.id, "name", fi.name));
            f = fi.folderId;
        }
        return new ArrayList<>(p);
    }
    @SuppressWarnings("unchecked")
    static Map<String, Object> wb(Store.Item i) {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("id", i.id); m.put("deploymentId", i.dep); m.put("name", i.name); m.put("type", i.type);
        m.put("meta", Json.deepCopy(i.meta)); m.put("calculatedFields", Json.deepCopy(i.calc));
        m.put("createdAt", i.createdAt); m.put("updatedAt", i.updatedAt); m.put("createdBy", i.ownerId);
        m.put("userId", (double) i.ownerId); m.put("user", owner(i.ownerId));
        m.put("folderId", i.folderId == null ? null : (double) i.folderId.longValue());
        m.put("folderPath", folderPath(i)); m.put("isFavorite", i.fav); m.put("slug", i.slug);
        m.put("dashboardDraft", Json.deepCopy(i.draft));
        m.put("dashboardPublished", i.published == null ? null : Json.deepCopy(i.published.get("config")));
        m.put("publishedDashboard", Json.deepCopy(i.published));
        return m;
    }
    static String envHost(Store.Deployment d) { return d.name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-") + "-" + d.id + ".platform-cloud.example"; }

    static Map<String, Object> depJson(Store.Deployment d, boolean detail) {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("id", String.valueOf(d.id)); m.put("name", d.name); m.put("created_at", d.createdAt);
        m.put("status", "running"); m.put("region", d.s.get("region")); m.put("cloudProvider", d.s.get("cloudProvider"));
        m.put("deploymentUrl", "https://" + envHost(d)); m.put("creationStep", d.s.get("creationStep"));
        if (detail) for (String k : List.of("releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold", "image", "template", "templateVariables", "defaultLaunchpadViewGroup", "launchpadTabs", "creationMethod", "deployMode"))
            m.put(k, Json.deepCopy(d.s.get(k)));
        return m;
    }

    static Map<String, Object> branchJson(Store.Branch b) {
        Map<String, Object> m = Json.obj("id", b.id, "name", b.name, "isStagingEnvironmentEnabled", b.staging, "kind", b.kind, "createdAt", b.createdAt);
        m.put("parentBranch", b.parent); m.put("lastHash", b.lastHash);
        return m;
    }

    static List<Map<String, Object>> envs(Store.Deployment d) {
        List<Map<String, Object>> out = new ArrayList<>();
        Store.User owner = Store.USERS.get(d.ownerId);
        String host = envHost(d);
        for (String type : List.of("production", "staging", "development")) {
            for (Store.Branch b : d.branches) {
                String t = b.kind.equals("production") ? "production" : b.kind.equals("personal") ? "development" : (b.staging ? "staging" : null);
                if (!type.equals(t)) continue;
                String id = t.equals("production") ? d.prodEnvId : b.envId;
                Store.User u = b.ownerId != null ? Store.USERS.get(b.ownerId) : owner;
                String h = t.equals("production") ? host : b.name + "--" + host;
                List<Object> creds = Json.arr(
                        Json.obj("type", "rest", "version", 1L, "database", "analytics", "host", h, "port", 443L, "url", "https://" + h + "/cubejs-api/v1"),
                        Json.obj("type", "sql", "version", 1L, "database", "db@" + id, "host", "sql-" + h, "port", 5432L, "url", "postgresql://sql-" + h + ":5432/db@" + id));
                out.add(Json.obj("id", id, "name", t.equals("production") ? "Production" : (t.equals("staging") ? "Staging: " : "Development: ") + b.name,
                        "type", t, "branch", b.name, "user", u == null ? "" : u.email, "api_credentials", creds));
            }
        }
        return out;
    }

    static boolean secretName(String n) {
        String u = n.toUpperCase(Locale.ROOT);
        for (String s : List.of("PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL")) if (u.contains(s)) return true;
        return false;
    }
    static List<Object> envVarList(Store.Deployment d) {
        List<Object> l = new ArrayList<>();
        for (String k : new TreeSet<>(d.envVars.keySet())) l.add(Json.obj("name", k, "value", secretName(k) ? "[ENCRYPTED]" : d.envVars.get(k)));
        return l;
    }

    static Store.Item workbookIn(Store.Deployment d, long id) {
        Store.Item i = Store.ITEMS.get(id);
        if (i == null || i.dep != d.id || !i.type.equals("WORKBOOK")) throw ApiError.notFound("workbook " + id);
        return i;
    }
    static long countWorkbooks(long dep) { return Store.ITEMS.values().stream().filter(i -> i.dep == dep && i.type.equals("WORKBOOK")).count(); }
    static void checkLimit(Store.Deployment d) {
        if (d.workbookLimit != null && countWorkbooks(d.id) >= d.workbookLimit)
            throw new ApiError(400, "workbook_limit_reached", "the plan allows at most " + d.workbookLimit + " workbooks in this deployment");
    }

    // ---- dashboard config normalisation / validation ----
    @SuppressWarnings("unchecked")
    static Object normalizeConfig(Object cfg, String path) {
        if (cfg == null) return null;
        Object c = Json.deepCopy(cfg);
        if (c instanceof Map && ((Map<String, Object>) c).get("widgets") instanceof List) {
            for (Object w : (List<Object>) ((Map<String, Object>) c).get("widgets")) {
                if (w instanceof Map && "TABS_CONTAINER".equals(((Map<String, Object>) w).get("type"))) {
                    Map<String, Object> wm = (Map<String, Object>) w;
                    wm.put("type", "CONTAINER");
                    Object conf = wm.get("config");
                    Map<String, Object> cm = conf instanceof Map ? (Map<String, Object>) conf : new LinkedHashMap<>();
                    cm.put("layout", "tabs");
                    wm.put("config", cm);
                }
            }
        }
        List<String> errs = new ArrayList<>();
        Schema.COMPONENTS.get("DashboardConfig").validate(c, path, errs, false);
        if (!errs.isEmpty()) throw new ApiError(422, "invalid_dashboard", "invalid dashboard configuration: " + errs.get(0), errs);
        return c;
    }

    @SuppressWarnings("unchecked")
    static Object remap(Object v, Map<Long, Long> ids) {
        if (v instanceof Map) {
            Map<String, Object> m = (Map<String, Object>) v;
            for (Map.Entry<String, Object> e : m.entrySet()) {
                if (e.getKey().equals("reportId") && e.getValue() instanceof Long && ids.containsKey(e.getValue())) e.setValue(ids.get(e.getValue()));
                else remap(e.getValue(), ids);
            }
        } else if (v instanceof List) for (Object o : (List<Object>) v) remap(o, ids);
        return v;
    }

    // ---------------- registration ----------------
    static void register() {
        components();
        Main.route("GET", "/api/v1/deployments", "listDeployments", "Deployments", "List deployments accessible to the caller")
                .q("offset:integer>=0", "limit:integer>=1")
                .resp(200, "{data!:{deployments!:[$Deployment]}, pagination!:$Pagination}")
                .desc("Offset pagination. limit defaults to 20 and is capped at " + MAX_LIMIT + " (pagination.limit reports the effective value). Ordered by name.")
                .h(r -> {
                    List<Store.Deployment> all = new ArrayList<>();
                    for (Store.Deployment d : Store.DEPS.values()) if (r.user.scopeDeployment == null || r.user.scopeDeployment == d.id) all.add(d);
                    all.sort(Comparator.comparing((Store.Deployment d) -> d.name.toLowerCase(Locale.ROOT)).thenComparing(d -> d.id));
                    long off = r.q.get("offset") != null ? r.qLong("offset") : 0, lim = r.q.get("limit") != null ? Math.min(r.qLong("limit"), MAX_LIMIT) : 20;
                    List<Object> page = new ArrayList<>();
                    for (long k = off; k < all.size() && k < off + lim; k++) page.add(depJson(all.get((int) k), false));
                    return Json.obj("data", Json.obj("deployments", page), "pagination", Json.obj("offset", off, "limit", lim, "total", (long) all.size()));
                });

        Main.route("GET", "/api/v1/deployments/{deploymentId}/environments", "listEnvironments", "Deployments", "List environments of a deployment")
                .q("type:(production|staging|development)", "offset:integer>=0", "limit:integer>=0", "first:integer>=1", "after:string")
                .resp(200, "$EnvironmentList")
                .desc("items holds the whole (type-filtered) list unless first/after is given (cursor style, first capped at " + MAX_FIRST + "); the deprecated data array is sliced by offset/limit (default 0/20). Order: production, staging, development.")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    List<Map<String, Object>> all = envs(d);
                    if (r.q.get("type") != null) all.removeIf(e -> !e.get("type").equals(r.q.get("type")));
                    Map<String, Object> m;
                    if (r.q.get("first") != null || r.q.get("after") != null) m = cursorPage(all, r, -1);
                    else { m = new LinkedHashMap<>(); m.put("items", new ArrayList<>(all)); m.put("pageInfo", pageInfo(0, all.size(), all.size())); }
                    long off = r.q.get("offset") != null ? r.qLong("offset") : 0, lim = r.q.get("limit") != null ? Math.min(r.qLong("limit"), MAX_LIMIT) : 20;
                    List<Object> data = new ArrayList<>();
                    for (long k = off; k < all.size() && k < off + lim; k++) data.add(all.get((int) k));
                    m.put("data", data);
                    m.put("pagination", Json.obj("offset", off, "limit", lim, "total", (long) all.size()));
                    return m;
                });

        Main.route("POST", "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync", "createMetaSyncToken", "Deployments", "Create a metadata-only token")
                .body("{security_context!:object, expires_in:number}", true)
                .resp(200, "{data!:{token!:string, created_at!:datetime, expires_at!:datetime, expires_in!:number, security_context!:object, scopes!:[string]}}")
                .desc("expires_in: seconds, default 86400, must be > 0 and <= 604800. The JWT is accepted only by data-model metadata endpoints.")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    String envId = r.p("environmentId");
                    if (envs(d).stream().noneMatch(e -> e.get("id").equals(envId))) throw ApiError.notFound("environment " + envId);
                    Map<String, Object> b = r.b();
                    double exp = b.get("expires_in") == null ? 86400 : ((Number) b.get("expires_in")).doubleValue();
                    if (b.containsKey("expires_in") && b.get("expires_in") == null) throw ApiError.invalid("expires_in must be a number");
                    if (!(exp > 0) || exp > 604800) throw ApiError.invalid("expires_in must be greater than 0 and at most 604800 seconds");
                    Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
                    Instant until = now.plusMillis(Math.round(exp * 1000));
                    Map<String, Object> payload = Json.obj("securityContext", b.get("security_context"), "scope", "meta", "deploymentId", d.id, "environmentId", envId,
                            "iat", now.getEpochSecond(), "exp", until.getEpochSecond(), "sub", r.user.email, "jti", Util.hex(8));
                    Store.audit("Metadata token created", r.user, d.id, Json.obj("environmentId", envId));
                    return Json.obj("data", Json.obj("token", Store.jwt(payload), "created_at", Util.ts(now), "expires_at", Util.ts(until),
                            "expires_in", b.get("expires_in") == null ? (Object) 86400L : b.get("expires_in"), "security_context", b.get("security_context"), "scopes", Json.arr("meta:read")));
                });

        Main.route("PUT", "/build/api/v1/deployments/{deploymentId}/branches/staging-environment", "setBranchStagingEnvironment", "Branches", "Enable or disable the always-on staging environment of a branch")
                .body("{enabled!:boolean, branchName:string, branchId:integer}", true)
                .resp(200, "{data!:$Branch}").err(404)
                .desc("Give branchName or branchId (if both, they must name the same branch). Enabling a personal development branch or the production branch is rejected with 422. Requires the Developer role.")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    needRank(r, 2, "change staging environments");
                    Map<String, Object> b = r.b();
                    if (b.get("branchName") == null && b.get("branchId") == null) throw ApiError.invalid("one of branchName or branchId is required");
                    Store.Branch br = null;
                    for (Store.Branch x : d.branches) {
                        boolean ok = (b.get("branchName") == null || x.name.equals(b.get("branchName"))) && (b.get("branchId") == null || b.get("branchId").equals(x.id));
                        if (ok) { br = x; break; }
                    }
                    if (br == null) {
                        if (b.get("branchName") != null && b.get("branchId") != null) {
                            boolean n = d.branches.stream().anyMatch(x -> x.name.equals(b.get("branchName"))), i = d.branches.stream().anyMatch(x -> b.get("branchId").equals(x.id));
                            if (n && i) throw ApiError.invalid("branchName and branchId name different branches");
                        }
                        throw ApiError.notFound("branch");
                    }
                    boolean en = (Boolean) b.get("enabled");
                    if (en && !br.kind.equals("shared"))
                        throw new ApiError(422, "branch_not_shared", br.kind.equals("production") ? "the production branch cannot have a staging environment" : "personal development branches cannot have a staging environment");
                    br.staging = en;
                    Store.audit(en ? "Staging environment enabled" : "Staging environment disabled", r.user, d.id, Json.obj("branch", br.name));
                    return Json.obj("data", branchJson(br));
                });

        Main.route("GET", "/api/v1/deployments/{deploymentId}/versions", "listDeploymentVersions", "Deployments", "List versions the deployment can switch to")
                .resp(200, "{data!:[$DeploymentVersion]}")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    return Json.obj("data", versions(d));
                });

        Main.route("PUT", "/api/v1/deployments/{deploymentId}", "updateDeployment", "Deployments", "Update deployment settings (partial merge)")
                .body("{name:string, cloudProvider:(hosted|aws|gcp), region:string, releaseChannel:(latest|release), releaseChannelVersion:any, releaseChannelVersionHold:boolean,"
                        + " template:string?, templateVariables:object, defaultLaunchpadViewGroup:string?, launchpadTabs:[string], creationMethod:(upload|hosted|github|ssh), deployMode:(git|cli)}", true)
                .resp(200, "{data!:$DeploymentDetail}")
                .desc("releaseChannelVersion accepts 1.7.20, v1.7.20 or the image reference and must be listed by listDeploymentVersions (else 400). templateVariables is merged key by key (null deletes a key). The image is derived and cannot be sent (unknown fields are rejected).")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    needRank(r, 2, "update deployments");
                    Map<String, Object> b = r.b();
                    String newVer = null, newChan = null;
                    if (b.containsKey("releaseChannelVersion")) {
                        Object v = b.get("releaseChannelVersion");
                        String norm = v instanceof String ? ((String) v).trim() : null;
                        if (norm != null && norm.startsWith("cubejs/cube:")) norm = norm.substring("cubejs/cube:".length());
                        if (norm != null && norm.startsWith("v")) norm = norm.substring(1);
                        String fn = norm;
                        boolean listed = norm != null && versions(d).stream().anyMatch(e -> e.get("version").equals(fn));
                        if (!listed) throw new ApiError(400, "unknown_version", "releaseChannelVersion " + Json.write(v) + " is not one of the versions available to this deployment");
                        newVer = norm; newChan = Store.channelOf(norm);
                        if (b.get("releaseChannel") != null && !b.get("releaseChannel").equals(newChan))
                            throw new ApiError(400, "unknown_version", "version " + norm + " is not listed in channel " + b.get("releaseChannel"));
                    } else if (b.get("releaseChannel") != null) {
                        newChan = (String) b.get("releaseChannel"); newVer = Store.CHANNELS.get(newChan).get(0);
                    }
                    if (b.containsKey("templateVariables")) {
                        for (Map.Entry<String, Object> e : ((Map<String, Object>) b.get("templateVariables")).entrySet())
                            if (e.getValue() instanceof Map || e.getValue() instanceof List) throw ApiError.invalid("templateVariables." + e.getKey() + " must be a scalar");
                    }
                    for (String k : List.of("name", "cloudProvider", "region", "template", "defaultLaunchpadViewGroup", "launchpadTabs", "creationMethod", "deployMode"))
                        if (b.containsKey(k)) { if (k.equals("name")) { if (((String) b.get(k)).isBlank()) throw ApiError.invalid("name must not be empty"); d.name = (String) b.get(k); } else d.s.put(k, Json.deepCopy(b.get(k))); }
                    if (b.containsKey("templateVariables")) {
                        @SuppressWarnings("unchecked") Map<String, Object> tv = (Map<String, Object>) d.s.get("templateVariables");
                        for (Map.Entry<String, Object> e : ((Map<String, Object>) b.get("templateVariables")).entrySet()) { if (e.getValue() == null) tv.remove(e.getKey()); else tv.put(e.getKey(), e.getValue()); }
                    }
                    if (newVer != null) {
                        d.s.put("releaseChannel", newChan); d.s.put("releaseChannelVersion", Store.image(newVer)); d.s.put("image", Store.image(newVer));
                        d.s.put("releaseChannelVersionHold", !Store.CHANNELS.get(newChan).get(0).equals(newVer));
                        d.ranBefore.add(newVer);
                    }
                    if (b.containsKey("releaseChannelVersionHold")) d.s.put("releaseChannelVersionHold", b.get("releaseChannelVersionHold"));
                    Store.audit("Deployment updated", r.user, d.id, Json.obj("fields", new ArrayList<>(b.keySet())));
                    return Json.obj("data", depJson(d, true));
                });

        Route audit = Main.route("GET", "/api/v1/audit-logs/export", "exportAuditLog", "Audit", "Export audit log events as CSV")
                .q("start:date", "end:date", "search:string", "eventName:string", "userEmail:string")
                .desc("CSV (UTF-8 with BOM, CRLF line ends), oldest event first. Columns: occurred_at, event_name, user_email, deployment_name, ip_address, attributes. start/end are inclusive dates (UTC). Requires the audit log feature and the AuditLogManage permission.")
                .h(r -> {
                    if (!Boolean.TRUE.equals(Store.tenantSettings.get("auditLogEnabled"))) throw ApiError.forbidden("the audit log feature is not enabled for this account");
                    if (!r.user.permissions.contains("AuditLogManage")) throw ApiError.forbidden("the AuditLogManage permission is required");
                    LocalDate s = r.q.get("start") != null ? LocalDate.parse(r.qStr("start")) : null, e = r.q.get("end") != null ? LocalDate.parse(r.qStr("end")) : null;
                    StringBuilder sb = new StringBuilder("\uFEFFoccurred_at,event_name,user_email,deployment_name,ip_address,attributes\r\n");
                    List<Map<String, Object>> evs = new ArrayList<>(Store.AUDIT);
                    evs.sort(Comparator.comparing(x -> (Instant) x.get("at")));
                    for (Map<String, Object> ev : evs) {
                        LocalDate day = ((Instant) ev.get("at")).atOffset(ZoneOffset.UTC).toLocalDate();
                        if (s != null && day.isBefore(s)) continue;
                        if (e != null && day.isAfter(e)) continue;
                        if (r.q.get("eventName") != null && !((String) ev.get("event")).equalsIgnoreCase(r.qStr("eventName"))) continue;
                        if (r.q.get("userEmail") != null && !((String) ev.get("email")).equalsIgnoreCase(r.qStr("userEmail"))) continue;
                        String[] cols = {Util.ts((Instant) ev.get("at")), (String) ev.get("event"), (String) ev.get("email"), (String) ev.get("deployment"), (String) ev.get("ip"), Json.write(ev.get("attrs"))};
                        if (r.q.get("search") != null && Arrays.stream(cols).noneMatch(c -> Util.containsCI(c, r.qStr("search")))) continue;
                        for (int k = 0; k < cols.length; k++) { if (k > 0) sb.append(','); sb.append(csv(cols[k])); }
                        sb.append("\r\n");
                    }
                    Resp resp = Resp.raw(200, sb.toString().getBytes(StandardCharsets.UTF_8), "text/csv;charset=utf-8");
                    resp.headers.put("Content-Disposition", "attachment; filename=\"audit-log-" + LocalDate.now(ZoneOffset.UTC) + ".csv\"");
                    return resp;
                });
        audit.respType = "text/csv";

        Main.route("GET", "/api/v1/deployments/{deploymentId}/workbooks", "listWorkbooks", "Workbooks", "List workbooks")
                .q("folderId:integer>=0?", "after:string", "first:integer>=1")
                .resp(200, "$WorkbooksListResponse")
                .desc("Cursor pagination: first defaults to " + WB_PAGE + " and is capped at " + MAX_FIRST + ". folderId=0 or folderId=null lists the workspace root; omitted lists all workbooks. Newest (highest id) first. count is the total of accessible workbooks matching the filter.")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    List<Map<String, Object>> all = new ArrayList<>();
                    List<Store.Item> its = new ArrayList<>(Store.ITEMS.values());
                    its.sort(Comparator.comparingLong((Store.Item i) -> i.id).reversed());
                    boolean filter = r.has("folderId");
                    Long fid = r.q.get("folderId") == null || r.qLong("folderId") == 0 ? null : r.qLong("folderId");
                    for (Store.Item i : its) {
                        if (i.dep != d.id || !i.type.equals("WORKBOOK")) continue;
                        if (filter && !Objects.equals(i.folderId, fid)) continue;
                        if (Store.level(r.user, i) < Store.READ) continue;
                        all.add(wb(i));
                    }
                    Map<String, Object> m = cursorPage(all, r, WB_PAGE);
                    m.put("count", (long) all.size());
                    return m;
                });

        Main.route("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", "getWorkbook", "Workbooks", "Get a workbook")
                .resp(200, "$Workbook")
                .h(r -> {
                    Store.Deployment d = dep(r);
                    Store.Item i = workbookIn(d, r.pid("workbookId"));
                    if (Store.level(r.user, i) < Store.READ) throw ApiError.forbidden("no read access to workbook " + i.id);
                    return wb(i);
                });

        Main.route("POST", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", "duplicateWorkbook", "Workbooks", "Clone a workbook")
                .body("{shared:boolean}", false)
                .resp(200, "$Workbook")
                .h(Api::duplicate);

        Main.route("PUT", "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", "upsertWorkbookBySlug", "Workbooks", "Create or update a workbook by slug")
                .body("{name:string<=255, folderId:integer>=0?, meta:object}", true)
                .resp(200, "$Workbook").err(409)
                .desc("All body fields optional; on create name defaults to the normalised slug and folderId to the root. meta is merged key by key. 409 with code upsert_branch_changed when a concurrent writer created or deleted the slug's workbook between decision and apply.")
                .self().h(Api::upsert);

        Main.route("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-move", "bulkMoveWorkspaceItems", "Workspace", "Move workspace items in bulk")
                .body("{items!:[$WorkspaceItemRef]<=100, folderId!:integer>=0?}", true)
                .resp(200, "{moved!:[$Workbook], failed!:[$ItemFailure]}")
                .desc("items: 0..100 entries, duplicates collapsed; folderId is required (null = workspace root). Per-item failures carry 403/404/400.")
                .h(Api::bulkMove);

        Main.route("GET", "/api/v1/deployments/{deploymentId}/env-vars", "listEnvVars", "Deployments", "List deployment environment variables")
                .q("first:integer>=1", "after:string")
                .resp(200, "$EnvVarList")
                .desc("Cursor pagination, alphabetical by name; first defaults to " + ENV_VAR_PAGE + ", capped at " + MAX_FIRST + ". Values of names containing PASS, SECRET, TOKEN, KEY or CREDENTIAL (any case) are [ENCRYPTED].")
                .h(r -> cursorPage(envVarList(dep(r)), r, ENV_VAR_PAGE));

        Main.route("GET", "/api/v1/spec", "getOpenApiSpec", "Meta", "The OpenAPI 3.1 document of this server")
                .resp(200, "object").h(r -> Main.openapi());
    }

    static List<Map<String, Object>> versions(Store.Deployment d) {
        List<Map<String, Object>> out = new ArrayList<>();
        String cur = ((String) d.s.get("releaseChannelVersion")).replace("cubejs/cube:v", "");
        for (Map.Entry<String, List<String>> ch : Store.CHANNELS.entrySet()) {
            for (String v : ch.getValue()) {
                boolean head = ch.getValue().get(0).equals(v);
                if (!head && !d.ranBefore.contains(v)) continue;
                out.add(Json.obj("releaseChannelVersion", Store.image(v), "version", v, "releaseChannel", ch.getKey(), "isLatestInChannel", head, "isCurrent", v.equals(cur)));
            }
        }
        return out;
    }

    static String csv(String s) {
        if (s == null) return "";
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) return "\"" + s.replace("\"", "\"\"") + "\"";
        return s;
    }

    // ---------------- clone ----------------
    static Store.Item newItem(long dep, String type, String name, Long folder, long owner) {
        Store.Item i = new Store.Item(); i.id = ++Store.seq; i.dep = dep; i.type = type; i.name = name; i.folderId = folder; i.ownerId = owner;
        i.createdAt = i.updatedAt = Util.now(); Store.ITEMS.put(i.id, i); return i;
    }

    @SuppressWarnings("unchecked")
    static Object duplicate(R r) {
        Store.Deployment d = dep(r);
        boolean shared = Boolean.TRUE.equals(r.b().get("shared"));
        long srcId = r.pid("workbookId");
        if (shared) {
            if (!r.user.creatorMode) throw ApiError.forbidden("shared clones are only available to creator-mode embed sessions");
            Store.Item src = Store.ITEMS.get(srcId);
            if (src == null || src.dep != d.id || !src.type.equals("WORKBOOK") || !src.sharedWs) throw ApiError.notFound("shared workbook " + srcId);
            if (src.published == null) throw new ApiError(400, "no_published_dashboard", "the shared workbook has no published dashboard");
            checkLimit(d);
            Store.Item c = newItem(d.id, "WORKBOOK", "Copy of " + src.name, null, r.user.id);
            c.meta = (LinkedHashMap<String, Object>) Json.deepCopy(src.meta); c.calc = (LinkedHashMap<String, Object>) Json.deepCopy(src.calc);
            Map<Long, Long> ids = new HashMap<>();
            List<Object> snaps = new ArrayList<>();
            for (Object so : (List<Object>) src.published.get("reportSnapshots")) {
                Map<String, Object> s = (Map<String, Object>) so;
                Store.Item rep = newItem(d.id, "REPORT", Util.str(s.get("name")) == null ? "Report" : (String) s.get("name"), null, r.user.id);
                rep.workbookId = c.id; rep.kind = (String) s.get("kind"); rep.sqlQuery = (String) s.get("sqlQuery"); rep.pythonCode = (String) s.get("pythonCode");
                rep.title = (String) s.get("title"); rep.description = (String) s.get("description"); rep.spec = Json.deepCopy(s.get("spec")); rep.publicId = "rpt_" + Util.b62(10);
                ids.put((Long) s.get("reportId"), rep.id);
                Map<String, Object> ns = (Map<String, Object>) Json.deepCopy(s);
                ns.put("id", ++Store.seq); ns.put("reportId", rep.id); ns.put("versionNumber", 1L);
                snaps.add(ns);
            }
            Map<String, Object> cfg = (Map<String, Object>) remap(Json.deepCopy(src.published.get("config")), ids);
            c.published = newDashboard(c, cfg, snaps, true);
            c.draft = (Map<String, Object>) Json.deepCopy(cfg);
            Store.audit("Workbook cloned", r.user, d.id, Json.obj("sourceId", src.id, "shared", true));
            return wb(c);
        }
        Store.Item src = workbookIn(d, srcId);
        if (Store.level(r.user, src) < Store.READ) throw ApiError.forbidden("no read access to workbook " + srcId);
        needRank(r, 1, "clone workbooks (AI BI User role or higher required)");
        checkLimit(d);
        Long folder = src.folderId != null && Store.canEditFolder(r.user, src.folderId) ? src.folderId : null;
        Store.Item c = newItem(d.id, "WORKBOOK", "Copy of " + src.name, folder, r.user.id);
        c.meta = (LinkedHashMap<String, Object>) Json.deepCopy(src.meta); c.calc = (LinkedHashMap<String, Object>) Json.deepCopy(src.calc);
        c.fav = false;
        Map<Long, Long> ids = new HashMap<>();
        for (Store.Item rep : new ArrayList<>(Store.ITEMS.values())) {
            if (rep.type.equals("REPORT") && Objects.equals(rep.workbookId, src.id)) {
                Store.Item nr = newItem(d.id, "REPORT", rep.name, folder, r.user.id);
                nr.workbookId = c.id; nr.kind = rep.kind; nr.sqlQuery = rep.sqlQuery; nr.pythonCode = rep.pythonCode; nr.title = rep.title;
                nr.description = rep.description; nr.spec = Json.deepCopy(rep.spec); nr.publicId = "rpt_" + Util.b62(10);
                nr.meta = (LinkedHashMap<String, Object>) Json.deepCopy(rep.meta);
                ids.put(rep.id, nr.id);
            }
        }
        if (src.draft != null) c.draft = (Map<String, Object>) remap(Json.deepCopy(src.draft), ids);
        if (src.published != null) {
            List<Object> snaps = (List<Object>) remap(Json.deepCopy(src.published.get("reportSnapshots")), ids);
            for (Object so : snaps) ((Map<String, Object>) so).put("id", ++Store.seq);
            c.published = newDashboard(c, (Map<String, Object>) remap(Json.deepCopy(src.published.get("config")), ids), snaps, false);
            c.published.put("versionNumber", src.published.get("versionNumber"));
            c.published.put("restrictDataDownload", src.published.get("restrictDataDownload"));
        }
        Store.audit("Workbook cloned", r.user, d.id, Json.obj("sourceId", src.id));
        return wb(c);
    }

    static Map<String, Object> newDashboard(Store.Item wb, Map<String, Object> cfg, List<Object> snaps, boolean fromShared) {
        return Json.obj("id", ++Store.seq, "publicId", "dash_" + Util.b62(14), "deploymentId", wb.dep, "workbookId", wb.id, "status", "published",
                "allowEmbed", false, "config", cfg, "versionNumber", 1L, "versionId", ++Store.seq, "reportSnapshots", snaps, "createdBy", wb.ownerId,
                "title", wb.name, "description", cfg.get("description"), "fromSharedWorkspace", fromShared, "restrictDataDownload", false, "useBoardDashboards", false);
    }

    // ---------------- upsert by slug ----------------
    @SuppressWarnings("unchecked")
    static Object upsert(R r) {
        String slug = r.p("slug").trim().toLowerCase(Locale.ROOT);
        if (slug.isEmpty() || slug.length() > 200) throw ApiError.invalid("slug must be 1..200 characters after trimming");
        Map<String, Object> b = r.b();
        if (b.get("name") != null && ((String) b.get("name")).isBlank()) throw ApiError.invalid("name must not be empty");
        Map<String, Object> meta = b.get("meta") == null ? null : (Map<String, Object>) Json.deepCopy(b.get("meta"));
        if (b.containsKey("meta") && b.get("meta") == null) throw ApiError.invalid("meta must be an object");
        if (meta != null && meta.containsKey("dashboardDraft")) meta.put("dashboardDraft", normalizeConfig(meta.get("dashboardDraft"), "$.meta.dashboardDraft"));
        boolean hasFolder = b.containsKey("folderId");
        Long folder = b.get("folderId") == null ? null : (Long) b.get("folderId");
        long decided;
        Store.Deployment d;
        // phase 1: decide and check access
        synchronized (Main.LOCK) {
            d = dep(r);
            Store.Item holder = findSlug(d.id, slug);
            if (hasFolder && folder != null) {
                Store.Item f = Store.ITEMS.get(folder);
                if (f == null || f.dep != d.id || !f.type.equals("FOLDER")) throw ApiError.notFound("folder " + folder);
            }
            if (holder != null) {
                if (Store.level(r.user, holder) < Store.EDIT) throw ApiError.forbidden("no edit access to the workbook holding slug '" + slug + "'");
                if (hasFolder && !Objects.equals(folder, holder.folderId) && (Store.level(r.user, holder) < Store.MANAGE || !Store.canEditFolder(r.user, folder)))
                    throw ApiError.forbidden("moving the workbook needs manage access and edit access to the destination folder");
                decided = holder.id;
            } else {
                needRank(r, 1, "create workbooks (AI BI User role or higher required)");
                if (folder != null && !Store.canEditFolder(r.user, folder)) throw ApiError.forbidden("no edit access to the destination folder");
                checkLimit(d);
                decided = -1;
            }
        }
        Thread.yield();
        // phase 2: apply if the decision still holds
        synchronized (Main.LOCK) {
            if (!Store.DEPS.containsKey(d.id)) throw ApiError.notFound("deployment " + d.id);
            Store.Item holder = findSlug(d.id, slug);
            long now = holder == null ? -1 : holder.id;
            if (now != decided) throw new ApiError(409, "upsert_branch_changed", "the workbook holding slug '" + slug + "' was created or deleted concurrently; retry the request");
            if (holder == null) {
                Store.Item c = newItem(d.id, "WORKBOOK", b.get("name") != null ? (String) b.get("name") : slug, folder, r.user.id);
                c.slug = slug; if (meta != null) c.meta.putAll(meta); c.fav = false;
                if (meta != null && meta.get("dashboardDraft") != null) c.draft = (Map<String, Object>) Json.deepCopy(meta.get("dashboardDraft"));
                Store.audit("Workbook created", r.user, d.id, Json.obj("slug", slug));
                return wb(c);
            }
            boolean changed = false;
            if (b.get("name") != null && !b.get("name").equals(holder.name)) { holder.name = (String) b.get("name"); changed = true; }
            if (hasFolder && !Objects.equals(folder, holder.folderId)) { holder.folderId = folder; changed = true; }
            if (meta != null) for (Map.Entry<String, Object> e : meta.entrySet()) {
                if (!holder.meta.containsKey(e.getKey()) || !Objects.equals(holder.meta.get(e.getKey()), e.getValue())) { holder.meta.put(e.getKey(), e.getValue()); changed = true; }
            }
            if (meta != null && meta.containsKey("dashboardDraft")) {
                Object nd = Json.deepCopy(meta.get("dashboardDraft"));
                if (!Objects.equals(nd, holder.draft)) { holder.draft = (Map<String, Object>) nd; changed = true; }
            }
            if (changed) holder.updatedAt = Util.now();
            return wb(holder);
        }
    }
    static Store.Item findSlug(long dep, String slug) {
        for (Store.Item i : Store.ITEMS.values()) if (i.dep == dep && i.type.equals("WORKBOOK") && slug.equals(i.slug)) return i;
        return null;
    }

    // ---------------- bulk move ----------------
    @SuppressWarnings("unchecked")
    static Object bulkMove(R r) {
        Store.Deployment d = dep(r);
        Map<String, Object> b = r.b();
        Long dest = (Long) b.get("folderId");
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        List<Object> moved = new ArrayList<>(), failed = new ArrayList<>();
        for (Object o : (List<Object>) b.get("items")) {
            Map<String, Object> it = (Map<String, Object>) o;
            String type = (String) it.get("type"); long id = (Long) it.get("id");
            if (!seen.add(type + ":" + id)) continue;
            try {
                moveOne(r, d, type, id, dest);
                moved.add(wb(Store.ITEMS.get(id)));
            } catch (ApiError e) {
                failed.add(Json.obj("type", type, "id", id, "error", Json.obj("message", e.getMessage(), "status", (long) e.status)));
            }
        }
        if (!moved.isEmpty()) Store.audit("Workspace items moved", r.user, d.id, Json.obj("count", (long) moved.size()));
        return Json.obj("moved", moved, "failed", failed);
    }
    static int depth(Store.Item f) { int n = 0; Long p = f.folderId; while (p != null && n < 64) { n++; Store.Item x = Store.ITEMS.get(p); p = x == null ? null : x.folderId; } return n; }
    static int subtreeHeight(Store.Item f) {
        int h = 0;
        for (Store.Item c : Store.ITEMS.values()) if (c.type.equals("FOLDER") && Objects.equals(c.folderId, f.id)) h = Math.max(h, 1 + subtreeHeight(c));
        return h;
    }
    static void moveOne(R r, Store.Deployment d, String type, long id, Long dest) {
        Store.Item i = Store.ITEMS.get(id);
        if (i == null || i.dep != d.id || !i.type.equals(type)) throw ApiError.notFound(type.toLowerCase(Locale.ROOT) + " " + id);
        Store.Item f = null;
        if (dest != null) {
            f = Store.ITEMS.get(dest);
            if (f == null || f.dep != d.id || !f.type.equals("FOLDER")) throw ApiError.notFound("destination folder " + dest);
        }
        if (Store.level(r.user, i) < Store.MANAGE) throw ApiError.forbidden("no manage access to " + type.toLowerCase(Locale.ROOT) + " " + id);
        if (!Store.canEditFolder(r.user, dest)) throw ApiError.forbidden("no edit access to the destination");
        if (type.equals("FOLDER") && f != null) {
            Long p = f.id; int guard = 0;
            while (p != null && guard++ < 64) {
                if (p == id) throw new ApiError(400, "invalid_move", "a folder cannot be moved into itself or one of its descendants");
                Store.Item x = Store.ITEMS.get(p); p = x == null ? null : x.folderId;
            }
            if (depth(f) + 1 + subtreeHeight(i) >= MAX_FOLDER_DEPTH) throw new ApiError(400, "invalid_move", "folder nesting would exceed the maximum depth of " + MAX_FOLDER_DEPTH);
        }
        if (!Objects.equals(i.folderId, dest)) { i.folderId = dest; i.updatedAt = Util.now(); }
    }

    // alias used in other files
    static final class Item0 {}
}
