package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ---------- E1 ----------

type DeploymentItem struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	CreatedAt      time.Time `json:"created_at"`
	Region         string    `json:"region"`
	CloudProvider  string    `json:"cloudProvider"`
	ReleaseChannel string    `json:"releaseChannel"`
	Version        string    `json:"version"`
}

func depItem(d *Deployment) DeploymentItem {
	return DeploymentItem{ID: strconv.Itoa(d.ID), Name: d.Name, CreatedAt: d.CreatedAt, Region: d.Region, CloudProvider: d.CloudProvider, ReleaseChannel: d.ReleaseChannel, Version: d.Version}
}

func hListDeployments(c *Ctx) {
	all := visibleDeps(c.U)
	s, e, pg, ok := offsetWindow(c, len(all), 1)
	if !ok {
		return
	}
	out := []DeploymentItem{}
	for _, d := range all[s:e] {
		out = append(out, depItem(d))
	}
	send(c, 200, map[string]any{"data": map[string]any{"deployments": out}, "pagination": pg})
}

// ---------- E2 ----------

type Credential struct {
	Type     string `json:"type"`
	Version  int    `json:"version"`
	Database string `json:"database"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	URL      string `json:"url"`
}

type Environment struct {
	ID             string       `json:"id"`
	Type           string       `json:"type"`
	Branch         string       `json:"branch"`
	User           string       `json:"user"`
	APICredentials []Credential `json:"api_credentials"`
}

func environments(d *Deployment) []Environment {
	var out []Environment
	slug := strings.ToLower(strings.ReplaceAll(d.Name, " ", "-"))
	for _, b := range st.Branches {
		if b.DeploymentID != d.ID {
			continue
		}
		typ := ""
		switch {
		case b.Kind == "production":
			typ = "production"
		case b.Staging:
			typ = "staging"
		case b.Kind == "personal" && b.DevMode:
			typ = "development"
		default:
			continue
		}
		id := envID(d.ID, b.Name, typ)
		host := fmt.Sprintf("%s--%s.%s.aws.platform.test", slug, b.Name, d.Region)
		if typ == "production" {
			host = fmt.Sprintf("%s.%s.aws.platform.test", slug, d.Region)
		}
		owner := ""
		if u := st.Users[b.OwnerID]; u != nil {
			owner = u.Email
		}
		out = append(out, Environment{ID: id, Type: typ, Branch: b.Name, User: owner, APICredentials: []Credential{
			{Type: "rest", Version: 1, Database: "db", Host: host, Port: 443, URL: "https://" + host + "/cubejs-api/v1"},
			{Type: "sql", Version: 1, Database: "db", Host: host, Port: 5432, URL: "postgres://" + host + ":5432/db"},
		}})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Branch != out[j].Branch {
			return out[i].Branch < out[j].Branch
		}
		return out[i].Type < out[j].Type
	})
	return out
}

func hListEnvironments(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	all := environments(d)
	if t, ok := c.q("type"); ok && t != "" {
		if t != "production" && t != "staging" && t != "development" {
			failField(c, "type", "type must be one of production, staging, development")
			return
		}
		var f []Environment
		for _, e := range all {
			if e.Type == t {
				f = append(f, e)
			}
		}
		all = f
	}
	if all == nil {
		all = []Environment{}
	}
	s, e, pg, ok := offsetWindow(c, len(all), 0)
	if !ok {
		return
	}
	cs, ce, pi, ok := cursorWindow(c, len(all), 0)
	if !ok {
		return
	}
	send(c, 200, map[string]any{"items": all[cs:ce], "pageInfo": pi, "data": all[s:e], "pagination": pg})
}

// ---------- E3 ----------

func hMetaToken(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	envOK := false
	for _, e := range environments(d) {
		if e.ID == c.P["environmentId"] {
			envOK = true
		}
	}
	if !envOK {
		fail(c, 404, "environment_not_found", "environment "+c.P["environmentId"]+" not found in deployment")
		return
	}
	sc, _, ok := c.obj("security_context", true)
	if !ok {
		return
	}
	exp := 86400.0
	if v, has := c.body["expires_in"]; has && v != nil {
		f, isF := v.(float64)
		if !isF || math.IsNaN(f) || f <= 0 || f > 1209600 {
			failField(c, "expires_in", "expires_in must be a number of seconds between 1 and 1209600")
			return
		}
		exp = math.Ceil(f)
	}
	created := now().Truncate(time.Millisecond)
	expires := created.Add(time.Duration(exp) * time.Second)
	tok := signJWT(map[string]any{"sub": fmt.Sprintf("meta:%d", c.U.ID), "securityContext": sc, "scope": "metadata", "deploymentId": d.ID, "environmentId": c.P["environmentId"], "iat": created.Unix(), "exp": expires.Unix()})
	send(c, 200, map[string]any{"data": map[string]any{"token": tok, "created_at": created, "expires_at": expires, "security_context": sc, "scopes": []string{"metadata"}}})
}

// ---------- E4 ----------

func findBranch(d *Deployment, name string, id int) *Branch {
	for _, b := range st.Branches {
		if b.DeploymentID == d.ID && ((name != "" && b.Name == name) || (id != 0 && b.ID == id)) {
			return b
		}
	}
	return nil
}

func hStaging(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	en, _, ok := c.boolean("enabled", true)
	if !ok {
		return
	}
	name, hasName, ok := c.str("branchName", false)
	if !ok {
		return
	}
	id, hasID, ok := c.integer("branchId", false)
	if !ok {
		return
	}
	if !hasName && !hasID {
		failField(c, "branchName", "one of branchName or branchId is required")
		return
	}
	var b *Branch
	if hasName {
		b = findBranch(d, name, 0)
	}
	if hasID {
		b2 := findBranch(d, "", id)
		if hasName && b != b2 {
			failField(c, "branchId", "branchName and branchId name different branches")
			return
		}
		b = b2
	}
	if b == nil {
		fail(c, 404, "branch_not_found", "branch not found")
		return
	}
	if en && b.Kind != "shared" {
		fail(c, 409, "branch_not_shared", fmt.Sprintf("branch %q is a %s branch; only shared branches can have an always-on staging environment", b.Name, b.Kind))
		return
	}
	b.Staging = en
	send(c, 200, map[string]any{"data": b})
}

// ---------- E5 / E6 ----------

func versionsFor(d *Deployment) []Version {
	var out []Version
	for _, ch := range []string{"latest", "release"} {
		for i, v := range channelVersions[ch] {
			out = append(out, Version{ReleaseChannelVersion: imageRef(v), Version: v, ReleaseChannel: ch, IsLatestInChannel: i == 0, IsCurrent: d.Version == v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return semverLess(out[j].Version, out[i].Version) })
	return out
}

func semverLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

func hVersions(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	send(c, 200, map[string]any{"data": versionsFor(d)})
}

func depDetail(d *Deployment) map[string]any {
	return map[string]any{"id": strconv.Itoa(d.ID), "name": d.Name, "created_at": d.CreatedAt, "region": d.Region, "cloudProvider": d.CloudProvider,
		"releaseChannel": d.ReleaseChannel, "releaseChannelVersion": imageRef(d.Version), "version": d.Version, "releaseChannelVersionHold": d.Hold,
		"image": imageRef(d.Version), "template": d.Template, "templateVariables": d.TemplateVariables, "defaultLaunchpadViewGroup": d.DefaultLaunchpadViewGroup,
		"launchpadTabs": d.LaunchpadTabs, "creationMethod": d.CreationMethod, "deployMode": d.DeployMode, "creationStep": creationSteps[d.CreationStep],
		"workbookLimit": nilIfZero(d.WorkbookLimit), "gitRepository": nilIfEmpty(d.GitRepo)}
}

func nilIfZero(i int) any {
	if i == 0 {
		return nil
	}
	return i
}
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

var hostedAliases = map[string]bool{"platform": true, "hosted": true, "managed": true, "cube": true, "cloud": true}

func normCloud(s string) (string, bool) {
	l := strings.ToLower(s)
	if hostedAliases[l] {
		return "platform", true
	}
	if l == "aws" || l == "gcp" || l == "azure" {
		return l, true
	}
	return "", false
}

func normCreation(s string) (string, bool) {
	l := strings.ToLower(s)
	if hostedAliases[l] {
		return "platform", true
	}
	if l == "upload" || l == "github" || l == "ssh" {
		return l, true
	}
	return "", false
}

func hUpdateDeployment(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleAdmin) {
		return
	}
	b := c.body
	if _, has := b["image"]; has {
		failField(c, "image", "the container image is resolved from the version and cannot be set directly")
		return
	}
	nd := *d
	if v, ok := b["cloudProvider"]; ok {
		s, isS := v.(string)
		n, good := normCloud(s)
		if !isS || !good {
			failField(c, "cloudProvider", "cloudProvider must be one of platform, aws, gcp, azure")
			return
		}
		nd.CloudProvider = n
	}
	for _, f := range []struct {
		k   string
		dst *string
	}{{"region", &nd.Region}, {"template", &nd.Template}} {
		if v, ok := b[f.k]; ok {
			s, isS := v.(string)
			if !isS || s == "" {
				failField(c, f.k, f.k+" must be a non-empty string")
				return
			}
			*f.dst = s
		}
	}
	for _, k := range []string{"creationMethod", "creation_method"} {
		if v, ok := b[k]; ok {
			s, _ := v.(string)
			n, good := normCreation(s)
			if !good {
				failField(c, k, "creationMethod must be one of upload, platform, github, ssh")
				return
			}
			nd.CreationMethod = n
		}
	}
	for _, k := range []string{"deployMode", "deploy_mode"} {
		if v, ok := b[k]; ok {
			s, _ := v.(string)
			if s != "git" && s != "cli" {
				failField(c, k, "deployMode must be git or cli")
				return
			}
			nd.DeployMode = s
		}
	}
	if v, ok := b["defaultLaunchpadViewGroup"]; ok {
		nd.DefaultLaunchpadViewGroup = v
	}
	if v, ok := b["launchpadTabs"]; ok {
		if _, isA := v.([]any); !isA && v != nil {
			failField(c, "launchpadTabs", "launchpadTabs must be an array")
			return
		}
		nd.LaunchpadTabs = v
	}
	if v, ok := b["templateVariables"]; ok {
		m, isM := v.(map[string]any)
		if !isM {
			failField(c, "templateVariables", "templateVariables must be an object")
			return
		}
		tv := map[string]any{}
		for k, x := range d.TemplateVariables {
			tv[k] = x
		}
		for k, x := range m {
			if x == nil {
				delete(tv, k)
			} else {
				tv[k] = x
			}
		}
		nd.TemplateVariables = tv
	}
	holdSet := false
	if v, ok := b["releaseChannelVersionHold"]; ok {
		bb, isB := v.(bool)
		if !isB {
			failField(c, "releaseChannelVersionHold", "releaseChannelVersionHold must be a boolean")
			return
		}
		nd.Hold, holdSet = bb, true
	}
	chSent := false
	if v, ok := b["releaseChannel"]; ok {
		s, isS := v.(string)
		if _, known := channelVersions[s]; !isS || !known {
			failField(c, "releaseChannel", "releaseChannel must be one of latest, release")
			return
		}
		nd.ReleaseChannel, chSent = s, true
	}
	if v, ok := b["releaseChannelVersion"]; ok {
		s, isS := v.(string)
		s = strings.TrimSpace(s)
		s = strings.TrimPrefix(s, "cubejs/cube:")
		s = strings.TrimPrefix(s, "v")
		var found *Version
		if isS {
			for _, ver := range versionsFor(d) {
				ver := ver
				if ver.Version == s {
					found = &ver
				}
			}
		}
		if found == nil {
			fail(c, 400, "unknown_release_channel_version", fmt.Sprintf("releaseChannelVersion %v is not one of the versions listed for this deployment", v))
			return
		}
		if chSent && nd.ReleaseChannel != found.ReleaseChannel {
			fail(c, 400, "release_channel_mismatch", "releaseChannelVersion "+found.Version+" belongs to channel "+found.ReleaseChannel)
			return
		}
		nd.ReleaseChannel, nd.Version = found.ReleaseChannel, found.Version
		if !found.IsLatestInChannel {
			nd.Hold = true
		} else if !holdSet {
			nd.Hold = false
		}
	} else if chSent {
		nd.Version = channelVersions[nd.ReleaseChannel][0]
		if !holdSet {
			nd.Hold = false
		}
	}
	*d = nd
	addAudit(c, "Deployment updated", d.ID, map[string]any{"fields": keysOf(b)})
	send(c, 200, map[string]any{"data": map[string]any{"deployment": depDetail(d)}})
}

func keysOf(m map[string]any) []string {
	var k []string
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

func addAudit(c *Ctx, name string, depID int, data map[string]any) {
	st.Audit = append(st.Audit, AuditEvent{ID: len(st.Audit) + 1, At: now(), Name: name, UserEmail: c.U.Email, DeploymentID: depID, IP: strings.Split(c.R.RemoteAddr, ":")[0], Data: data})
}

// ---------- E7 ----------

func parseDay(s string, end bool) (time.Time, bool) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if end {
			return t.AddDate(0, 0, 1), true
		}
		return t, true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

func hAuditExport(c *Ctx) {
	if st.Plan != "enterprise" {
		fail(c, 403, "feature_disabled", "the audit log feature is not enabled on this plan")
		return
	}
	if !c.U.has("AuditLogManage") {
		fail(c, 403, "permission_required", "the AuditLogManage permission is required")
		return
	}
	var from, to time.Time
	hasFrom, hasTo := false, false
	if s, ok := c.q("start"); ok && s != "" {
		t, good := parseDay(s, false)
		if !good {
			failField(c, "start", "start must be an ISO 8601 date")
			return
		}
		from, hasFrom = t, true
	}
	if s, ok := c.q("end"); ok && s != "" {
		t, good := parseDay(s, true)
		if !good {
			failField(c, "end", "end must be an ISO 8601 date")
			return
		}
		to, hasTo = t, true
	}
	if hasFrom && hasTo && to.Before(from) {
		failField(c, "end", "end must not be before start")
		return
	}
	search, _ := c.q("search")
	evName, _ := c.q("eventName")
	email, _ := c.q("userEmail")
	var rows []AuditEvent
	for _, e := range st.Audit {
		if hasFrom && e.At.Before(from) || hasTo && !e.At.Before(to) {
			continue
		}
		if evName != "" && !strings.EqualFold(e.Name, evName) {
			continue
		}
		if email != "" && !strings.EqualFold(e.UserEmail, email) {
			continue
		}
		if search != "" {
			hay := strings.ToLower(e.Name + " " + e.UserEmail + " " + e.IP + " " + fmt.Sprint(e.Data) + " " + depName(e.DeploymentID))
			if !strings.Contains(hay, strings.ToLower(search)) {
				continue
			}
		}
		rows = append(rows, e)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].At.After(rows[j].At) })
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	w.Write([]string{"id", "created_at", "event_name", "user_email", "deployment_id", "deployment_name", "ip_address", "event_data"})
	for _, e := range rows {
		data := map[string]any{}
		for k, v := range e.Data {
			data[k] = v
		}
		w.Write([]string{strconv.Itoa(e.ID), e.At.Format(time.RFC3339), e.Name, e.UserEmail, strconv.Itoa(e.DeploymentID), depName(e.DeploymentID), e.IP, jsonString(data)})
	}
	w.Flush()
	c.W.Header().Set("Content-Type", "text/csv; charset=UTF-8")
	c.W.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="audit-log-%s.csv"`, now().Format("20060102T150405Z")))
	c.W.Header().Set("X-Row-Count", strconv.Itoa(len(rows)))
	c.W.WriteHeader(200)
	c.W.Write([]byte(sb.String()))
}

func depName(id int) string {
	if d := st.Deps[id]; d != nil {
		return d.Name
	}
	return ""
}
