package main

import (
	"fmt"
	"time"
)

type Version struct {
	ReleaseChannelVersion string `json:"releaseChannelVersion"`
	Version               string `json:"version"`
	ReleaseChannel        string `json:"releaseChannel"`
	IsLatestInChannel     bool   `json:"isLatestInChannel"`
	IsCurrent             bool   `json:"isCurrent"`
}

// channel heads first in each slice
var channelVersions = map[string][]string{
	"latest":  {"1.7.21", "1.7.19", "1.7.3"},
	"release": {"1.6.15", "1.6.9"},
}

func imageRef(v string) string { return "cubejs/cube:v" + v }

func seedAll() map[string]string {
	st = &Store{Deps: map[int]*Deployment{}, Users: map[int]*User{}, Items: map[int]*Item{}, EnvIDs: map[string]string{}, Coll: map[string]*Coll{}, Uploads: map[string]map[string]any{}, Plan: "enterprise"}
	rand32 := func() string { return randHex(16) }
	base := time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC)
	keys := map[string]string{}
	mk := func(id int, email, first, last string, role int, perms []string, scope int, creator bool, tokenName string) *User {
		u := &User{ID: id, Email: email, FirstName: first, LastName: last, Role: role, Active: true, Perms: perms, ScopeDep: scope, CreatorMode: creator, CreatedAt: base.Add(-time.Duration(400-id) * time.Hour)}
		if tokenName != "" {
			u.Key = "apk_" + tokenName + "_" + rand32()
			keys[tokenName] = u.Key
		}
		st.Users[id] = u
		return u
	}
	admin := mk(1, "ada.admin@acme.test", "Ada", "Admin", RoleAdmin, []string{"AuditLogManage", "SecretsManage", "DownloadData"}, 0, false, "admin")
	devu := mk(2, "dev.dana@acme.test", "Dana", "Developer", RoleDeveloper, []string{"SecretsManage", "DownloadData"}, 0, false, "developer")
	aibi := mk(3, "ai.ben@acme.test", "Ben", "Analyst", RoleAIBI, []string{"DownloadData"}, 0, false, "aiBiUser")
	mk(4, "vera.viewer@acme.test", "Vera", "Viewer", RoleViewer, nil, 0, false, "viewer")
	mk(5, "otto.auditor@acme.test", "Otto", "Auditor", RoleViewer, []string{"AuditLogManage"}, 0, false, "auditor")
	mk(6, "sam.scoped@acme.test", "Sam", "Scoped", RoleAdmin, []string{"SecretsManage"}, 9002, false, "scoped")
	ec := mk(7, "embed.creator@customer.test", "Eli", "Embed", RoleAIBI, nil, 0, true, "embedCreator")
	ec.EmbedOnly = true
	gone := mk(8, "gone.user@acme.test", "Gus", "Gone", RoleViewer, nil, 0, false, "deactivated")
	gone.Active = false
	mk(9, "nora.noaccess@acme.test", "Nora", nil0(), RoleViewer, nil, 0, false, "")

	deps := []struct {
		id      int
		name    string
		created time.Time
		region  string
		cloud   string
		ch, ver string
		limit   int
	}{
		{9001, "Sales Analytics", base.AddDate(0, -6, 3), "us-east-1", "aws", "latest", "1.7.19", 0},
		{9002, "Marketing Mart", base.AddDate(0, -2, 0), "europe-west3", "gcp", "release", "1.6.15", 0},
		{9003, "Finance Ledger", base.AddDate(-1, 0, 0), "us-central1", "platform", "latest", "1.7.21", 3},
		{9004, "Ops Sandbox", base.AddDate(0, -1, -10), "eu-west-1", "aws", "release", "1.6.9", 0},
		{9005, "Legacy Reporting", base.AddDate(-2, 3, 0), "ap-southeast-1", "platform", "latest", "1.7.3", 25},
	}
	for _, d := range deps {
		st.Deps[d.id] = &Deployment{ID: d.id, Name: d.name, CreatedAt: d.created, Region: d.region, CloudProvider: d.cloud,
			ReleaseChannel: d.ch, Version: d.ver, Template: "default", TemplateVariables: map[string]any{"replicas": "2", "tier": "standard"},
			CreationMethod: "github", DeployMode: "git", CreationStep: 4, WorkbookLimit: d.limit, LaunchpadTabs: []any{"workbooks", "reports"}}
	}
	st.Deps[9004].CreationStep = 1
	st.Deps[9004].CreationMethod = "upload"
	st.Deps[9004].DeployMode = "cli"

	// branches
	bid := 500
	addBranch := func(dep int, name string, parent string, kind string, owner int, staging, dev bool) *Branch {
		bid++
		var p *string
		if parent != "" {
			p = ptrS(parent)
		}
		b := &Branch{ID: bid, DeploymentID: dep, Name: name, ParentBranch: p, LastHash: randHex(20), Staging: staging, Kind: kind, OwnerID: owner, DevMode: dev, CreatedAt: base.Add(-time.Duration(bid) * time.Minute),
			Files: map[string]string{
				"model/cubes/orders.yml":    "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n",
				"model/cubes/customers.yml": "cubes:\n  - name: customers\n    sql_table: public.customers\n",
				"cube.js":                   "module.exports = {};\n",
			}}
		st.Branches = append(st.Branches, b)
		return b
	}
	for _, d := range deps {
		addBranch(d.id, "main", "", "production", 1, false, false)
		addBranch(d.id, "staging", "main", "shared", 2, d.id == 9001 || d.id == 9002, false)
		addBranch(d.id, "feature-churn", "main", "shared", 2, false, false)
		addBranch(d.id, "dev-dana", "main", "personal", 2, false, true)
	}
	addBranch(9001, "feature-churn-v2", "feature-churn", "shared", 3, false, false)
	addBranch(9001, "dev-ben", "main", "personal", 3, false, true)

	// env vars
	st.Deps[9001].EnvVars = []EnvVar{
		{"CUBEJS_DB_TYPE", "postgres"}, {"CUBEJS_DB_HOST", "db.internal.acme.test"}, {"CUBEJS_DB_PORT", "5432"},
		{"CUBEJS_DB_NAME", "analytics"}, {"CUBEJS_DB_USER", "cube"}, {"CUBEJS_DB_PASS", "s3cr3t-pg"},
		{"CUBEJS_API_SECRET", "a9f0c2d1"}, {"STRIPE_API_KEY", "sk_live_123"}, {"GITHUB_TOKEN", "ghp_abc"},
		{"GCP_CREDENTIALS_JSON", "{}"}, {"TZ", "UTC"}, {"LOG_LEVEL", "info"}, {"CUBEJS_CACHE_AND_QUEUE_DRIVER", "cubestore"},
		{"CUBEJS_SCHEDULED_REFRESH_DEFAULT", "true"}, {"FEATURE_FLAGS", "a,b"}, {"db_password", "lower"},
		{"MONKEY_BUSINESS", "bananas"}, {"CUBEJS_REFRESH_WORKER", "true"}, {"SNOWFLAKE_PRIVATE_KEY_PASSPHRASE", "pp"},
	}
	for _, id := range []int{9002, 9003, 9004, 9005} {
		st.Deps[id].EnvVars = []EnvVar{{"CUBEJS_DB_TYPE", "snowflake"}, {"CUBEJS_DB_SNOWFLAKE_ACCOUNT", "acme-" + fmt.Sprint(id)}, {"CUBEJS_DB_PASS", "pw"}, {"TZ", "Europe/Berlin"}}
	}

	// workspace
	ts := func(days int) time.Time { return base.AddDate(0, 0, -days).Add(time.Duration(days*37) * time.Minute) }
	add := func(dep int, typ, name string, folder *int, owner int, days int) *Item {
		it := &Item{ID: nextID(), DeploymentID: dep, Type: typ, Name: name, Meta: map[string]any{}, CalculatedFields: map[string]any{}, CreatedAt: ts(days), UpdatedAt: ts(days).Add(3 * time.Hour), CreatedBy: owner, FolderID: folder}
		st.Items[it.ID] = it
		return it
	}
	addReport := func(wb *Item, name, kind string) *Item {
		r := add(wb.DeploymentID, "REPORT", name, wb.FolderID, wb.CreatedBy, 20)
		r.WorkbookID = wb.ID
		r.Kind = kind
		r.PublicID = "rpt_" + randHex(6)
		r.SQL = "SELECT status, COUNT(*) FROM orders GROUP BY 1"
		r.Meta = map[string]any{"chartType": kind}
		lv := base.Add(-time.Duration(r.ID%7) * time.Hour)
		r.LastViewedAt = &lv
		return r
	}
	publish := func(wb *Item, reports []*Item, embed bool) {
		widgets := []any{}
		snaps := []map[string]any{}
		for i, r := range reports {
			widgets = append(widgets, map[string]any{"id": fmt.Sprintf("w%d", i+1), "type": "CHART", "position": map[string]any{"x": (i % 2) * 6, "y": (i / 2) * 4, "w": 6, "h": 4}, "config": map[string]any{"reportId": r.ID}})
			snaps = append(snaps, map[string]any{"id": nextID(), "reportId": r.ID, "versionNumber": 2, "kind": r.Kind, "name": r.Name, "title": r.Name, "description": nil, "sqlQuery": r.SQL, "pythonCode": nil, "spec": map[string]any{"mark": "bar"}, "meta": map[string]any{}, "isSourceReport": true})
		}
		if len(widgets) > 0 {
			w0 := widgets[0].(map[string]any)
			w0["responsiveLayouts"] = map[string]any{"lg": map[string]any{"x": 0, "y": 0, "w": 6, "h": 4}, "md": nil, "sm": map[string]any{"x": 0, "y": 0, "w": 6, "h": 5}, "xs": nil, "xxs": nil}
			w0["style"] = map[string]any{"background": "#fff"}
		}
		if len(snaps) > 0 {
			snaps[0]["fillMissingRows"] = map[string]any{"member": "orders.created_at", "excludedDimensions": nil}
			snaps[0]["periodComparisons"] = []any{map[string]any{"measure": "orders.revenue", "timeDimension": "orders.created_at", "offset": map[string]any{"amount": 1, "unit": "year"}, "outputs": []any{"delta", "percent"}}}
			snaps[0]["preferences"] = map[string]any{"columnFormats": map[string]any{"orders.revenue": map[string]any{"type": "currency", "decimalPlaces": 2}}}
		}
		widgets = append(widgets, map[string]any{"id": "tabs1", "type": "CONTAINER", "position": map[string]any{"x": 0, "y": 14, "w": 12, "h": 6}, "config": map[string]any{"layout": "tabs", "tabs": []any{"Overview", "Detail"}}})
		widgets = append(widgets, map[string]any{"id": "t1", "type": "TEXT", "position": map[string]any{"x": 0, "y": 12, "w": 12, "h": 2}, "config": map[string]any{"text": "Numbers are in USD <approx> & rounded"}})
		cfg := map[string]any{"kind": "CLASSIC", "title": wb.Name, "description": "Published board", "widgets": widgets,
			"layout": map[string]any{"cols": map[string]any{"lg": 12, "md": 10, "sm": 6, "xs": 4, "xxs": 2}, "rowHeight": 30, "margin": []any{10, 10}}}
		wb.Draft = deepCopy(cfg).(map[string]any)
		wb.Published = &Dashboard{ID: nextID(), PublicID: "dsh_" + randHex(8), DeploymentID: wb.DeploymentID, WorkbookID: wb.ID, Status: "published", AllowEmbed: embed,
			Config: cfg, VersionNumber: 3, VersionID: nextID(), ReportSnapshots: snaps, CreatedBy: ptrI(wb.CreatedBy), Title: ptrS(wb.Name), Description: ptrS("Published board"),
			FromSharedWorkspace: ptrB(false), RestrictDataDownload: ptrB(false), UseBoardDashboards: ptrB(false)}
	}
	// 9001
	company := add(9001, "FOLDER", "Company", nil, 1, 60)
	sales := add(9001, "FOLDER", "Sales", &company.ID, 1, 50)
	emea := add(9001, "FOLDER", "EMEA", &sales.ID, 2, 40)
	board := add(9001, "FOLDER", "Board only", nil, 1, 30)
	board.Restricted = true
	devf := add(9001, "FOLDER", "Dana's drafts", nil, 2, 25)
	benf := add(9001, "FOLDER", "Ben's corner", nil, 3, 22)
	_ = benf
	rev := add(9001, "WORKBOOK", "Revenue Overview", &sales.ID, 1, 45)
	rev.Slug = ptrS("revenue-overview")
	rev.Meta = map[string]any{"color": "blue", "tags": []any{"finance", "kpi"}}
	rev.CalculatedFields = map[string]any{"net_revenue": map[string]any{"sql": "revenue - refunds", "type": "number"}}
	rev.Favorite = true
	r1 := addReport(rev, "Monthly revenue", "vega")
	r2 := addReport(rev, "Revenue by region", "table")
	r3 := addReport(rev, "ARR", "kpi")
	publish(rev, []*Item{r1, r2, r3}, true)
	pipe := add(9001, "WORKBOOK", "Pipeline Health", nil, 2, 35)
	p1 := addReport(pipe, "Open opportunities", "table")
	pipe.Draft = map[string]any{"kind": "CLASSIC", "title": "Pipeline (draft)", "widgets": []any{map[string]any{"id": "w1", "type": "CHART", "position": map[string]any{"x": 0, "y": 0, "w": 12, "h": 6}, "config": map[string]any{"reportId": p1.ID}}}}
	bp := add(9001, "WORKBOOK", "Board Pack Q3", &board.ID, 1, 28)
	addReport(bp, "Cash runway", "kpi")
	emw := add(9001, "WORKBOOK", "EMEA Deep Dive", &emea.ID, 2, 18)
	e1 := addReport(emw, "EMEA bookings", "map")
	publish(emw, []*Item{e1}, false)
	ai := add(9001, "WORKBOOK", "AI Explorations", nil, 3, 12)
	ai.Slug = ptrS("ai-explorations")
	addReport(ai, "Churn drivers (python)", "html")
	ai.Draft = map[string]any{"kind": "APP", "title": "Churn app", "app": map[string]any{"entry": "index.html", "files": map[string]any{"index.html": "<div id=app></div>"}, "html": nil, "manifest": map[string]any{"dependencies": map[string]any{"react": "18.2.0"}, "version": 1}}}
	add(9001, "WORKBOOK", "Scratchpad", &devf.ID, 2, 5)
	for i := 1; i <= 14; i++ {
		w := add(9001, "WORKBOOK", fmt.Sprintf("Weekly KPI #%02d", i), &company.ID, 1+(i%3), 10+i)
		if i%4 == 0 {
			w.Slug = ptrS(fmt.Sprintf("weekly-kpi-%02d", i))
		}
	}
	add(9001, "REPORT", "Loose report", nil, 3, 3).PublicID = "rpt_loose01"
	// 9002 (scoped)
	mf := add(9002, "FOLDER", "Campaigns", nil, 6, 20)
	mw := add(9002, "WORKBOOK", "Campaign ROI", &mf.ID, 6, 15)
	mr := addReport(mw, "Spend vs revenue", "vega")
	publish(mw, []*Item{mr}, false)
	add(9002, "WORKBOOK", "Attribution", nil, 1, 8)
	// 9003 at limit (3)
	ff := add(9003, "FOLDER", "Ledgers", nil, 1, 100)
	fw := add(9003, "WORKBOOK", "General Ledger", &ff.ID, 1, 90)
	fr := addReport(fw, "Trial balance", "table")
	publish(fw, []*Item{fr}, false)
	add(9003, "WORKBOOK", "Accounts Payable", nil, 2, 80)
	add(9003, "WORKBOOK", "Accounts Receivable", nil, 3, 70)
	// 9004/9005
	ow := add(9004, "WORKBOOK", "Incident Tracker", nil, 2, 9)
	addReport(ow, "MTTR", "kpi")
	add(9005, "WORKBOOK", "Old Exec Summary", nil, 1, 400)

	// audit log
	names := []string{"Logged in", "Logged out", "Deployment updated", "API key created", "Workbook deleted", "User invited", "Env vars updated", "Logged in"}
	emails := []string{admin.Email, devu.Email, aibi.Email, "vera.viewer@acme.test", "otto.auditor@acme.test"}
	depIDs := []int{9001, 9002, 9003, 9001, 9004}
	for i := 0; i < 40; i++ {
		at := base.Add(-time.Duration(i*5) * time.Hour).Add(time.Duration(i*7) * time.Minute)
		data := map[string]any{"userAgent": "Mozilla/5.0", "sessionId": fmt.Sprintf("s-%03d", i)}
		if names[i%len(names)] == "Env vars updated" {
			data["changed"] = "CUBEJS_DB_PASS"
			data["value"] = "[HIDDEN]"
		}
		if names[i%len(names)] == "Workbook deleted" {
			data["workbook"] = "Quarterly, \"old\" review"
		}
		st.Audit = append(st.Audit, AuditEvent{ID: i + 1, At: at, Name: names[i%len(names)], UserEmail: emails[i%len(emails)], DeploymentID: depIDs[i%len(depIDs)], IP: fmt.Sprintf("203.0.113.%d", 10+i), Data: data})
	}

	st.Tenant = map[string]any{"companyName": "Acme Analytics", "defaultRole": "viewer", "sessionTimeoutMinutes": 720, "allowedEmailDomains": []any{"acme.test"}, "auditLogEnabled": true, "plan": "enterprise", "mfaRequired": false}
	st.AppConfig = map[string]any{"appTheme": map[string]any{"primaryColor": "#3b5bdb", "mode": "light"}, "applyThemeGlobally": false, "creatorMode": false,
		"embedding": map[string]any{"enabled": true, "signedEmbedding": true}, "sheetsUi": map[string]any{"enabled": true}, "timezoneSettings": map[string]any{"defaultTimezone": "UTC", "allowUserOverride": true}}
	seedColls(base)
	return keys
}

func nil0() string { return "" }

func seedColls(base time.Time) {
	t := coll("embedTenants")
	t.Items = append(t.Items, map[string]any{"id": 1, "name": "Globex", "externalId": "globex", "createdAt": base, "updatedAt": base},
		map[string]any{"id": 2, "name": "Initech", "externalId": "initech", "createdAt": base, "updatedAt": base})
	coll("embedUsers").Items = append(coll("embedUsers").Items, map[string]any{"id": 1, "tenantId": 1, "email": "hank@globex.test", "externalId": "u-hank", "createdAt": base})
	coll("embedGroups").Items = append(coll("embedGroups").Items, map[string]any{"id": 1, "tenantId": 1, "name": "Analysts", "createdAt": base})
	coll("embedMembers").Items = append(coll("embedMembers").Items, map[string]any{"id": 1, "groupId": 1, "tenantId": 1, "userId": 1})
	coll("userAttributes").Items = append(coll("userAttributes").Items,
		map[string]any{"id": 1, "name": "region", "type": "string", "description": "Sales region", "defaultValue": nil, "createdAt": base},
		map[string]any{"id": 2, "name": "allowed_accounts", "type": "number_array", "description": "", "defaultValue": []any{}, "createdAt": base})
	coll("userAttributeValues").Items = append(coll("userAttributeValues").Items, map[string]any{"userId": 2, "attributeId": 1, "attributeName": "region", "value": "EMEA"})
	coll("oauthIntegrations").Items = append(coll("oauthIntegrations").Items, map[string]any{"id": 1, "name": "Snowflake OAuth", "provider": "snowflake", "clientId": "cid-123", "secret": "shh", "createdAt": base})
	coll("userOauthTokens").Items = append(coll("userOauthTokens").Items, map[string]any{"id": 1, "integrationId": 1, "userId": 1, "secret": "tok", "expiresAt": base.AddDate(0, 1, 0), "createdAt": base})
	coll("oidcTokenConfigs").Items = append(coll("oidcTokenConfigs").Items, map[string]any{"id": 1, "name": "Okta", "issuer": "https://acme.okta.test", "audience": "platform", "claimsMapping": map[string]any{"email": "email"}, "createdAt": base})
	coll("notifications").Items = append(coll("notifications").Items, map[string]any{"id": 1, "deploymentId": 9001, "name": "Weekly revenue", "workbookId": 1007, "schedule": "0 8 * * MON", "timezone": "UTC", "recipients": []any{"ada.admin@acme.test"},
		"dashboardFilters": []any{map[string]any{"member": "orders.status", "operator": "is_not_empty"}}, "timeGrain": "week", "enabled": true, "createdAt": base})
	coll("dbtJobs")
	coll("groups").Items = append(coll("groups").Items, map[string]any{"id": 1, "name": "Finance", "memberIds": []any{1, 2}, "createdAt": base})
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}
