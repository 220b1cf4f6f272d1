import java.nio.charset.StandardCharsets;
import java.time.*;
import java.util.*;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

final class Store {
    static final int NONE = 0, READ = 1, EDIT = 2, MANAGE = 3;
    static final List<String> ROLES = List.of("VIEWER", "AI_BI_USER", "DEVELOPER", "ADMIN");

    static final class User {
        long id; String email, firstName, lastName, role; boolean active = true, creatorMode; Long scopeDeployment;
        Set<String> permissions = new LinkedHashSet<>(); String createdAt; String picture;
        LinkedHashMap<String, Object> attrs = new LinkedHashMap<>(); List<Long> groups = new ArrayList<>();
        int rank() { return ROLES.indexOf(role); }
    }
    static final class Branch {
        long id; String name, parent, lastHash, kind; Long ownerId; boolean staging; String envId; String createdAt;
    }
    static final class Deployment {
        long id; String name, createdAt; Long ownerId; Integer workbookLimit;
        LinkedHashMap<String, Object> s = new LinkedHashMap<>();
        Set<String> ranBefore = new LinkedHashSet<>();
        LinkedHashMap<String, String> envVars = new LinkedHashMap<>();
        List<Branch> branches = new ArrayList<>();
        Map<String, TreeMap<String, String>> files = new HashMap<>();
        Map<Long, String> devMode = new HashMap<>(); // userId -> branch
        String prodEnvId;
    }
    static final class Item {
        long id, dep, ownerId; String type, name; Long folderId;
        LinkedHashMap<String, Object> meta = new LinkedHashMap<>(), calc = new LinkedHashMap<>();
        String createdAt, updatedAt, slug, lastViewedAt; Boolean fav;
        Map<String, Object> draft; Map<String, Object> published; // published = Dashboard object
        Long workbookId; String publicId, kind, sqlQuery, pythonCode, title, description; Object spec;
        Map<Long, Integer> acl = new HashMap<>(); Integer defaultAccess; int position; boolean sharedWs;
        List<Map<String, Object>> placements = new ArrayList<>();
        LinkedHashMap<String, String> embedAccess = new LinkedHashMap<>();
    }

    static final LinkedHashMap<String, String> ROLE_TOKENS = new LinkedHashMap<>();
    static final Map<String, User> KEYS = new HashMap<>();
    static final LinkedHashMap<Long, User> USERS = new LinkedHashMap<>();
    static final LinkedHashMap<Long, Deployment> DEPS = new LinkedHashMap<>();
    static final LinkedHashMap<Long, Item> ITEMS = new LinkedHashMap<>();
    static final List<Map<String, Object>> AUDIT = new ArrayList<>();
    static final byte[] JWT_SECRET = Util.hex(32).getBytes(StandardCharsets.UTF_8);
    static long seq = 5000, depSeq = 3300, branchSeq = 710, userSeq = 40;
    static Instant clock = Instant.parse("2024-01-08T09:00:00Z");
    static Map<String, Object> tenantSettings = new LinkedHashMap<>();
    static Map<String, Object> appConfig = new LinkedHashMap<>();

    // version catalogue: channel -> versions newest first
    static final LinkedHashMap<String, List<String>> CHANNELS = new LinkedHashMap<>();
    static { CHANNELS.put("latest", List.of("1.7.20", "1.7.18", "1.7.11")); CHANNELS.put("release", List.of("1.6.14", "1.6.11", "1.5.9")); }
    static String image(String v) { return "cubejs/cube:v" + v; }
    static String channelOf(String v) { for (Map.Entry<String, List<String>> e : CHANNELS.entrySet()) if (e.getValue().contains(v)) return e.getKey(); return null; }

    static String t(int days, int hours) { return Util.ts(clock.plus(Duration.ofDays(days).plusHours(hours).plusMinutes((days * 7 + hours * 13) % 60))); }

    static User user(String role, String email, String first, String last) {
        User u = new User(); u.id = ++userSeq; u.role = role; u.email = email; u.firstName = first; u.lastName = last;
        u.createdAt = t(-60 + (int) u.id % 20, 3);
        u.picture = u.id % 2 == 0 ? "https://avatars.platform.example/u/" + u.id + ".png" : null;
        if (role.equals("ADMIN")) u.permissions.addAll(List.of("AuditLogManage", "SecretsManage", "DownloadData", "UsersManage", "DeploymentManage"));
        else if (role.equals("DEVELOPER")) u.permissions.addAll(List.of("DownloadData", "DeploymentManage"));
        else if (role.equals("AI_BI_USER")) u.permissions.add("DownloadData");
        USERS.put(u.id, u);
        return u;
    }
    static String key(String role, User u) {
        String k = "pak_" + role.toLowerCase(Locale.ROOT).replace("_", "") + "_" + Util.hex(18);
        KEYS.put(k, u); ROLE_TOKENS.put(role, k); return k;
    }

    static Deployment dep(long id, String name, int day, String region, String cloud, String version, Long owner) {
        Deployment d = new Deployment(); d.id = id; d.name = name; d.createdAt = t(day, 2); d.ownerId = owner;
        d.s.put("cloudProvider", cloud); d.s.put("region", region);
        d.s.put("releaseChannel", channelOf(version)); d.s.put("releaseChannelVersion", image(version));
        d.s.put("releaseChannelVersionHold", !CHANNELS.get(channelOf(version)).get(0).equals(version));
        d.s.put("image", image(version)); d.s.put("template", "standard");
        d.s.put("templateVariables", Json.obj("CUBEJS_DB_TYPE", "postgres", "CUBEJS_CACHE_AND_QUEUE_DRIVER", "cubestore"));
        d.s.put("defaultLaunchpadViewGroup", null); d.s.put("launchpadTabs", new ArrayList<>(List.of("workbooks", "reports")));
        d.s.put("creationMethod", "github"); d.s.put("deployMode", "git"); d.s.put("creationStep", "completed");
        d.ranBefore.add(version);
        d.prodEnvId = "env" + Long.toString(id * 7919, 36);
        DEPS.put(id, d);
        branch(d, "main", null, "production", null, false);
        d.envVars.put("CUBEJS_DB_HOST", "db-" + id + ".internal.example");
        d.envVars.put("CUBEJS_DB_NAME", "analytics");
        d.envVars.put("CUBEJS_DB_USER", "cube_reader");
        d.envVars.put("CUBEJS_DB_PASS", "s3cr3t-" + id);
        d.envVars.put("CUBEJS_API_SECRET", Util.hex(16));
        d.files.put("main", new TreeMap<>(Map.of(
                "model/cubes/orders.yml", "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n",
                "model/cubes/customers.yml", "cubes:\n  - name: customers\n    sql_table: public.customers\n",
                "cube.js", "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_${securityContext.tenant}`,\n};\n")));
        return d;
    }
    static Branch branch(Deployment d, String name, String parent, String kind, Long owner, boolean staging) {
        Branch b = new Branch(); b.id = ++branchSeq; b.name = name; b.parent = parent; b.kind = kind; b.ownerId = owner; b.staging = staging;
        b.lastHash = Util.sha1(d.id + name).substring(0, 12); b.envId = "env" + Long.toString(b.id * 104729 + d.id, 36); b.createdAt = t(5, (int) (b.id % 24));
        d.branches.add(b);
        if (parent != null && d.files.containsKey(parent)) d.files.put(name, new TreeMap<>(d.files.get(parent)));
        return b;
    }

    static Item item(long dep, String type, String name, Long folder, User owner, int day) {
        Item i = new Item(); i.id = ++seq; i.dep = dep; i.type = type; i.name = name; i.folderId = folder; i.ownerId = owner.id;
        i.createdAt = t(day, (int) (i.id % 11)); i.updatedAt = t(day + 3, (int) (i.id % 17)); i.position = (int) (i.id % 9);
        ITEMS.put(i.id, i);
        return i;
    }
    static Item report(Item wb, String name, String kind, User owner) {
        Item r = item(wb.dep, "REPORT", name, wb.folderId, owner, 12);
        r.workbookId = wb.id; r.kind = kind; r.title = name; r.publicId = "rpt_" + Util.b62(10);
        r.sqlQuery = "SELECT status, COUNT(*) AS orders FROM orders GROUP BY 1";
        r.spec = kind.equals("vega") ? Json.obj("mark", "bar", "encoding", Json.obj("x", Json.obj("field", "status"))) : null;
        r.lastViewedAt = t(30, (int) (r.id % 20));
        return r;
    }

    static Map<String, Object> widget(String id, String type, int x, int y, int w, int h, Map<String, Object> config) {
        Map<String, Object> m = Json.obj("id", id, "type", type, "position", Json.obj("x", (long) x, "y", (long) y, "w", (long) w, "h", (long) h));
        m.put("config", config);
        return m;
    }
    static Map<String, Object> config(String title, List<Item> reports) {
        List<Object> widgets = new ArrayList<>();
        int y = 0, k = 0;
        for (Item r : reports) widgets.add(widget("w" + (++k), "CHART", 0, (y += 4) - 4, 6, 4, Json.obj("reportId", r.id)));
        widgets.add(widget("w" + (++k), "TEXT", 6, 0, 6, 2, Json.obj("text", "Notes for " + title)));
        widgets.add(widget("w" + (++k), "CONTAINER", 6, 2, 6, 6, Json.obj("layout", "tabs", "tabs", Json.arr("Overview", "Detail"))));
        Map<String, Object> c = Json.obj("kind", "CLASSIC", "title", title, "description", "Dashboard for " + title, "widgets", widgets,
                "layout", Json.obj("rowHeight", 40L, "margin", Json.arr(8L, 8L), "containerPadding", Json.arr(12L, 12L),
                        "cols", Json.obj("lg", 12L, "md", 10L, "sm", 6L, "xs", 4L, "xxs", 2L),
                        "breakpoints", Json.obj("lg", 1200L, "md", 996L, "sm", 768L, "xs", 480L, "xxs", 0L)),
                "settings", Json.obj("autoRefresh", false), "theme", Json.obj("palette", "ocean"));
        c.put("app", null);
        return c;
    }
    static Map<String, Object> snapshot(Item r, long ver) {
        Map<String, Object> s = Json.obj("id", ++seq, "reportId", r.id, "versionNumber", ver, "kind", r.kind, "name", r.name, "title", r.title,
                "description", r.description, "sqlQuery", r.sqlQuery, "pythonCode", r.pythonCode, "spec", r.spec, "meta", Json.obj("source", "seed"),
                "isSourceReport", true, "fillMissingRows", null, "periodComparisons", null,
                "preferences", Json.obj("columnFormats", Json.obj("orders", Json.obj("type", "number", "decimalPlaces", 0L))));
        return s;
    }
    static void publish(Item wb, List<Item> reports, boolean allowEmbed) {
        Map<String, Object> cfg = config(wb.name, reports);
        List<Object> snaps = new ArrayList<>();
        for (Item r : reports) snaps.add(snapshot(r, 1));
        Map<String, Object> d = Json.obj("id", ++seq, "publicId", "dash_" + Util.b62(14), "deploymentId", wb.dep, "workbookId", wb.id, "status", "published",
                "allowEmbed", allowEmbed, "config", cfg, "versionNumber", 1L, "versionId", ++seq, "reportSnapshots", snaps, "createdBy", wb.ownerId,
                "title", wb.name, "description", "Published dashboard", "fromSharedWorkspace", wb.sharedWs, "restrictDataDownload", false, "useBoardDashboards", false);
        wb.published = d;
        wb.draft = (Map<String, Object>) Json.deepCopy(cfg);
    }

    static void audit(String event, User u, Long dep, String ip, Map<String, Object> attrs, Instant when) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("at", when); e.put("event", event); e.put("email", u == null ? "" : u.email);
        Deployment d = dep == null ? null : DEPS.get(dep);
        e.put("deployment", d == null ? "" : d.name); e.put("ip", ip); e.put("attrs", attrs);
        AUDIT.add(e);
    }
    static void audit(String event, User u, Long dep, Map<String, Object> attrs) { audit(event, u, dep, "127.0.0.1", attrs, Instant.now()); }

    // ---------- metadata JWTs ----------
    static String jwt(Map<String, Object> payload) {
        String h = Util.b64url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String p = Util.b64url(Json.write(payload).getBytes(StandardCharsets.UTF_8));
        return h + "." + p + "." + Util.b64url(hmac(h + "." + p));
    }
    static byte[] hmac(String s) {
        try { Mac m = Mac.getInstance("HmacSHA256"); m.init(new SecretKeySpec(JWT_SECRET, "HmacSHA256")); return m.doFinal(s.getBytes(StandardCharsets.UTF_8)); }
        catch (Exception e) { throw new RuntimeException(e); }
    }
    static boolean isMetaToken(String t) {
        String[] p = t.split("\\.");
        return p.length == 3 && Util.b64url(hmac(p[0] + "." + p[1])).equals(p[2]);
    }

    // ---------- access ----------
    static int level(User u, Item i) {
        if (u.role.equals("ADMIN")) return MANAGE;
        int l = rawLevel(u, i, 0);
        if (u.role.equals("VIEWER")) l = Math.min(l, READ);
        return l;
    }
    static int rawLevel(User u, Item i, int depth) {
        if (depth > 50) return NONE;
        if (i.ownerId == u.id) return MANAGE;
        Integer a = i.acl.get(u.id);
        if (a != null) return a;
        if (i.defaultAccess != null) return i.defaultAccess;
        if (i.type.equals("REPORT") && i.workbookId != null && ITEMS.containsKey(i.workbookId)) return rawLevel(u, ITEMS.get(i.workbookId), depth + 1);
        if (i.folderId != null && ITEMS.containsKey(i.folderId)) return rawLevel(u, ITEMS.get(i.folderId), depth + 1);
        return u.rank() >= 2 ? EDIT : READ;
    }
    /** edit access to a destination folder; null = workspace root */
    static boolean canEditFolder(User u, Long folderId) {
        if (u.rank() < 1) return false;
        if (folderId == null) return true;
        Item f = ITEMS.get(folderId);
        return f != null && level(u, f) >= EDIT;
    }

    static void seed() {
        User admin = user("ADMIN", "dana.okafor@acme-analytics.example", "Dana", "Okafor");
        User dev = user("DEVELOPER", "leo.brandt@acme-analytics.example", "Leo", "Brandt");
        User ai = user("AI_BI_USER", "maya.ishikawa@acme-analytics.example", "Maya", "Ishikawa");
        User viewer = user("VIEWER", "victor.nunes@acme-analytics.example", "Victor", "Nunes");
        User creator = user("AI_BI_USER", "embed.creator@partner.example", "Embed", "Creator"); creator.creatorMode = true;
        User scoped = user("DEVELOPER", "sam.contractor@vendor.example", "Sam", "Reyes"); scoped.scopeDeployment = 3150L;
        User ai2 = user("AI_BI_USER", "jorge.alvarez@acme-analytics.example", "Jorge", "Álvarez");
        User gone = user("VIEWER", "former.employee@acme-analytics.example", "Pat", null); gone.active = false;
        user("VIEWER", "ops.bot@acme-analytics.example", null, null);
        key("admin", admin); key("developer", dev); key("aiBiUser", ai); key("viewer", viewer); key("embedCreator", creator); key("scopedDeveloper", scoped);

        Deployment d1 = dep(3107, "Acme Analytics", -200, "us-central1", "gcp", "1.7.18", admin.id);
        d1.ranBefore.add("1.6.11"); d1.ranBefore.add("1.5.9");
        Deployment d2 = dep(3112, "Acme Sandbox (Starter plan)", -150, "eu-west-1", "aws", "1.6.14", admin.id);
        d2.workbookLimit = 3;
        Deployment d3 = dep(3150, "Marketing Insights", -90, "europe-west3", "gcp", "1.7.20", dev.id);
        Deployment d4 = dep(3201, "Legacy Finance", -30, "us-east-1", "aws", "1.6.11", admin.id);
        d4.s.put("creationMethod", "upload"); d4.s.put("deployMode", "cli");
        d1.envVars.put("CUBEJS_JWK_URL", "https://auth.acme-analytics.example/.well-known/jwks.json");
        d1.envVars.put("STRIPE_API_KEY", "sk_live_" + Util.hex(8)); d1.envVars.put("SNOWFLAKE_PRIVATE_KEY_PASSPHRASE", "pp-" + Util.hex(6));
        d1.envVars.put("GOOGLE_APPLICATION_CREDENTIALS", "/secrets/gcp.json"); d1.envVars.put("SLACK_WEBHOOK_TOKEN", "xoxb-" + Util.hex(6));
        d1.envVars.put("CUBEJS_SCHEDULED_REFRESH_TIMEZONES", "UTC,Europe/Berlin"); d1.envVars.put("CUBEJS_LOG_LEVEL", "info");
        d1.envVars.put("CUBEJS_DEV_MODE", "false"); d1.envVars.put("TZ", "UTC"); d1.envVars.put("FEATURE_FLAG_BETA_CHARTS", "on");
        branch(d1, "feature-revenue-model", "main", "shared", dev.id, true);
        branch(d1, "q3-rollup", "main", "shared", admin.id, false);
        branch(d1, "dev-leo-brandt", "main", "personal", dev.id, false);
        branch(d1, "dev-maya-ishikawa", "main", "personal", ai.id, false);
        d1.devMode.put(dev.id, "dev-leo-brandt");
        d1.files.get("q3-rollup").put("model/cubes/broken.yml", "cubes:\n\t- name: broken\n    sql_table: [unclosed\n");
        branch(d3, "campaign-attribution", "main", "shared", dev.id, false);
        branch(d3, "dev-sam-reyes", "main", "personal", scoped.id, false);
        d3.devMode.put(scoped.id, "dev-sam-reyes");
        branch(d2, "experiments", "main", "shared", admin.id, true);

        // ---- workspace of deployment 3107 ----
        Item sales = item(3107, "FOLDER", "Sales", null, admin, 1);
        Item emea = item(3107, "FOLDER", "EMEA", sales.id, admin, 2);
        Item de = item(3107, "FOLDER", "Germany", emea.id, admin, 3);
        Item fin = item(3107, "FOLDER", "Finance - Restricted", null, admin, 4); fin.defaultAccess = NONE;
        Item team = item(3107, "FOLDER", "Team Shared", null, admin, 5); team.acl.put(ai.id, EDIT); team.acl.put(ai2.id, EDIT);
        Item exec = item(3107, "FOLDER", "Executive", null, admin, 6); exec.defaultAccess = READ;
        Item mine = item(3107, "FOLDER", "Maya's Drafts", null, ai, 7);
        Long[] places = {null, sales.id, emea.id, de.id, fin.id, team.id, exec.id, mine.id, null, sales.id};
        String[] names = {"Revenue Overview", "Pipeline Health", "EMEA Bookings", "Germany Weekly", "Cash Flow", "Team KPIs", "Board Pack",
                "Churn Deep Dive", "Marketing Funnel", "Quota Attainment", "Support Tickets", "Inventory Turns", "Cohort Retention",
                "Product Usage", "Net Revenue Retention", "Sales Velocity", "Forecast vs Actual", "Regional Margins", "Partner Sourcing",
                "Customer Health", "Onboarding Funnel", "Price Realisation", "Deal Desk", "Renewals Calendar", "Web Traffic",
                "Feature Adoption", "AR Aging", "Headcount Plan", "Usage Billing", "Q3 Review", "Café Sales (Zürich)", "Data Quality Monitor"};
        User[] owners = {admin, dev, admin, ai, admin, ai, admin, ai, dev, admin, ai2};
        for (int k = 0; k < names.length; k++) {
            User o = owners[k % owners.length];
            Long f = places[k % places.length];
            if (f != null && f.equals(mine.id)) o = ai;
            if (f != null && f.equals(fin.id)) o = admin;
            Item wb = item(3107, "WORKBOOK", names[k], f, o, 10 + k);
            wb.meta.put("description", names[k] + " workbook");
            wb.meta.put("tags", Json.arr(k % 2 == 0 ? "finance" : "ops"));
            if (k % 3 == 0) wb.calc.put("margin_pct", Json.obj("sql", "(revenue - cost) / NULLIF(revenue, 0)", "type", "number"));
            wb.fav = k % 4 == 0 ? Boolean.TRUE : (k % 4 == 1 ? null : Boolean.FALSE);
            if (k < 8) wb.slug = names[k].toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
            List<Item> reps = new ArrayList<>();
            reps.add(report(wb, names[k] + " - trend", "vega", o));
            if (k % 2 == 0) reps.add(report(wb, names[k] + " - table", "table", o));
            if (k % 5 == 0) { Item kp = report(wb, names[k] + " - KPI", "kpi", o); kp.pythonCode = "result = df['orders'].sum()"; reps.add(kp); }
            if (k % 3 != 2) publish(wb, reps, k % 4 == 0);
            wb.lastViewedAt = t(40, k % 24);
            if (wb.published != null) { wb.embedAccess.put("*", k % 2 == 0 ? "read" : "none"); }
        }
        Item sharedWb = item(3107, "WORKBOOK", "Partner Portal Template", null, admin, 20); sharedWb.sharedWs = true;
        publish(sharedWb, List.of(report(sharedWb, "Partner revenue", "vega", admin), report(sharedWb, "Partner table", "table", admin)), true);
        Item sharedNoPub = item(3107, "WORKBOOK", "Partner Draft Template", null, admin, 21); sharedNoPub.sharedWs = true;
        report(sharedNoPub, "Draft chart", "vega", admin);
        Item loose = item(3107, "REPORT", "Ad-hoc SQL exploration", sales.id, dev, 22); loose.kind = "table"; loose.publicId = "rpt_" + Util.b62(10);
        loose.sqlQuery = "SELECT 1"; loose.lastViewedAt = t(41, 1);

        // ---- 3112 (limit reached) ----
        Item s1 = item(3112, "WORKBOOK", "Sandbox One", null, admin, 30);
        publish(s1, List.of(report(s1, "Sandbox chart", "vega", admin)), false);
        item(3112, "WORKBOOK", "Sandbox Two", null, admin, 31);
        item(3112, "WORKBOOK", "Sandbox Three", null, dev, 32);
        // ---- 3150 ----
        Item mf = item(3150, "FOLDER", "Campaigns", null, dev, 33);
        Item m1 = item(3150, "WORKBOOK", "Campaign ROI", mf.id, dev, 34); m1.slug = "campaign-roi";
        publish(m1, List.of(report(m1, "ROI by channel", "vega", dev)), false);
        item(3150, "WORKBOOK", "Attribution Paths", null, scoped, 35);
        item(3201, "WORKBOOK", "Ledger Reconciliation", null, admin, 36);

        // ---- audit events ----
        String[] evs = {"Logged in", "Logged in", "Deployment updated", "API key created", "Workbook shared", "Logged out", "Environment variables updated", "Logged in", "User invited", "Failed login"};
        User[] who = {admin, dev, admin, admin, ai, dev, admin, viewer, admin, viewer};
        for (int k = 0; k < 40; k++) {
            User u = who[k % who.length];
            audit(evs[k % evs.length], u, k % 3 == 0 ? null : (k % 2 == 0 ? 3107L : 3150L), "203.0.113." + (10 + k % 50),
                    Json.obj("userAgent", "Mozilla/5.0", "detail", k % 7 == 0 ? "note, with \"quotes\"" : "ok", "password", "[HIDDEN]"),
                    clock.plus(Duration.ofDays(k * 3L).plusHours(k % 24).plusMinutes(k * 7L % 60)));
        }
        tenantSettings.putAll(Json.obj("name", "Acme Analytics", "timezone", "UTC", "defaultRole", "VIEWER", "ssoEnforced", false, "allowedEmailDomains", Json.arr("acme-analytics.example"), "auditLogEnabled", true, "plan", "enterprise"));
        appConfig.putAll(Json.obj("appTheme", Json.obj("primaryColor", "#3b5bdb", "logoUrl", null), "applyThemeGlobally", false, "creatorMode", false,
                "embedding", Json.obj("enabled", true, "allowedOrigins", Json.arr("https://portal.partner.example")), "sheetsUi", Json.obj("enabled", true),
                "timezoneSettings", Json.obj("defaultTimezone", "UTC", "allowUserOverride", true)));
        Extra.seed(admin, dev, ai, viewer);
    }
}
