package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

type PathEntry struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type Owner struct {
	ID        int     `json:"id"`
	Email     string  `json:"email"`
	FirstName *string `json:"firstName"`
	Picture   *string `json:"picture"`
}

type WorkbookOut struct {
	ID                 int            `json:"id"`
	DeploymentID       int            `json:"deploymentId"`
	Name               string         `json:"name"`
	Type               string         `json:"type"`
	Meta               map[string]any `json:"meta"`
	CalculatedFields   map[string]any `json:"calculatedFields"`
	CreatedAt          time.Time      `json:"createdAt"`
	UpdatedAt          time.Time      `json:"updatedAt"`
	CreatedBy          int            `json:"createdBy"`
	UserID             *int           `json:"userId"`
	User               *Owner         `json:"user"`
	FolderID           *int           `json:"folderId"`
	FolderPath         []PathEntry    `json:"folderPath,omitempty"`
	IsFavorite         *bool          `json:"isFavorite"`
	Slug               *string        `json:"slug"`
	DashboardDraft     map[string]any `json:"dashboardDraft"`
	DashboardPublished map[string]any `json:"dashboardPublished"`
	PublishedDashboard *Dashboard     `json:"publishedDashboard"`
}

func wbOut(u *User, it *Item) WorkbookOut {
	o := WorkbookOut{ID: it.ID, DeploymentID: it.DeploymentID, Name: it.Name, Type: it.Type, Meta: it.Meta, CalculatedFields: it.CalculatedFields,
		CreatedAt: it.CreatedAt, UpdatedAt: it.UpdatedAt, CreatedBy: it.CreatedBy, UserID: ptrI(it.CreatedBy), FolderID: it.FolderID, Slug: it.Slug,
		DashboardDraft: it.Draft, PublishedDashboard: it.Published}
	if o.Meta == nil {
		o.Meta = map[string]any{}
	}
	if o.CalculatedFields == nil {
		o.CalculatedFields = map[string]any{}
	}
	if ow := st.Users[it.CreatedBy]; ow != nil {
		fn := ow.FirstName
		o.User = &Owner{ID: ow.ID, Email: ow.Email, FirstName: &fn}
	}
	if it.FolderID != nil {
		anc := it.ancestors() // nearest first; includes containing folder
		o.FolderPath = []PathEntry{}
		for i := len(anc) - 1; i >= 1; i-- { // root first, excluding the containing folder
			o.FolderPath = append(o.FolderPath, PathEntry{ID: anc[i].ID, Name: anc[i].Name})
		}
	}
	if it.Type == "WORKBOOK" {
		fav := it.Favorite
		o.IsFavorite = &fav
	}
	if it.Published != nil {
		o.DashboardPublished = it.Published.Config
	}
	return o
}

// item lookup in deployment; 404 when missing / other deployment
func getItem(c *Ctx, d *Deployment, raw string, typ string) *Item {
	id, err := strconv.Atoi(raw)
	it := st.Items[id]
	if err != nil || it == nil || it.DeploymentID != d.ID || (typ != "" && it.Type != typ) {
		name := strings.ToLower(typ)
		if name == "" {
			name = "item"
		}
		fail(c, 404, name+"_not_found", name+" "+raw+" not found in deployment "+strconv.Itoa(d.ID))
		return nil
	}
	return it
}

// ---------- E8 / E9 ----------

func hListWorkbooks(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	var folder *int
	folderSet := false
	if s, ok := c.q("folderId"); ok && s != "" {
		folderSet = true
		if s != "null" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				failField(c, "folderId", "folderId must be a non-negative integer or null")
				return
			}
			if n != 0 {
				folder = &n
			}
		}
	}
	var all []WorkbookOut
	for _, it := range itemsOf(d.ID, "WORKBOOK") {
		if !canRead(c.U, it) {
			continue
		}
		if folderSet {
			if (folder == nil) != (it.FolderID == nil) || folder != nil && *folder != *it.FolderID {
				continue
			}
		}
		all = append(all, wbOut(c.U, it))
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := strings.ToLower(all[i].Name), strings.ToLower(all[j].Name)
		if a != b {
			return a < b
		}
		return all[i].ID < all[j].ID
	})
	if all == nil {
		all = []WorkbookOut{}
	}
	listCursor(c, all, defaultCursorPage, nil)
}

func hGetWorkbook(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	it := getItem(c, d, c.P["workbookId"], "WORKBOOK")
	if it == nil {
		return
	}
	if !canRead(c.U, it) {
		fail(c, 403, "forbidden", "no read access to this workbook")
		return
	}
	send(c, 200, wbOut(c.U, it))
}

// ---------- E10 ----------

func remapReportIDs(v any, m map[int]int) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if k == "reportId" {
				if id, ok := asInt(x); ok {
					if n, ok := m[id]; ok {
						t[k] = n
						continue
					}
				}
			}
			t[k] = remapReportIDs(x, m)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = remapReportIDs(x, m)
		}
		return t
	}
	return v
}

func hClone(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	shared, _, ok := c.boolean("shared", false)
	if !ok {
		return
	}
	if shared && !c.U.CreatorMode {
		fail(c, 403, "creator_mode_required", "shared clones are only available to creator-mode embed sessions")
		return
	}
	src := getItem(c, d, c.P["workbookId"], "WORKBOOK")
	if src == nil {
		return
	}
	if !shared && !canRead(c.U, src) {
		fail(c, 403, "forbidden", "no read access to the source workbook")
		return
	}
	if !needRole(c, RoleAIBI) {
		return
	}
	if shared && src.Published == nil {
		fail(c, 400, "no_published_dashboard", "the source workbook has no published dashboard")
		return
	}
	if d.WorkbookLimit > 0 && workbookCount(d.ID) >= d.WorkbookLimit {
		fail(c, 400, "workbook_limit_reached", fmt.Sprintf("the plan allows %d workbooks in this deployment", d.WorkbookLimit))
		return
	}
	t := now()
	var folder *int
	if !shared && src.FolderID != nil {
		if f := st.Items[*src.FolderID]; f != nil && canEdit(c.U, f) {
			folder = ptrI(f.ID)
		}
	}
	nw := &Item{ID: nextID(), DeploymentID: d.ID, Type: "WORKBOOK", Name: "Copy of " + src.Name, Meta: deepCopy(src.Meta).(map[string]any),
		CalculatedFields: deepCopy(src.CalculatedFields).(map[string]any), CreatedAt: t, UpdatedAt: t, CreatedBy: c.U.ID, FolderID: folder}
	idMap := map[int]int{}
	if shared {
		var snaps []map[string]any
		for _, s := range src.Published.ReportSnapshots {
			oldID, _ := asInt(s["reportId"])
			r := &Item{ID: nextID(), DeploymentID: d.ID, Type: "REPORT", Name: fmt.Sprint(s["name"]), Meta: map[string]any{}, CalculatedFields: map[string]any{}, CreatedAt: t, UpdatedAt: t, CreatedBy: c.U.ID, WorkbookID: nw.ID, PublicID: "rpt_" + randHex(6)}
			if k, ok := s["kind"].(string); ok {
				r.Kind = k
			}
			if q, ok := s["sqlQuery"].(string); ok {
				r.SQL = q
			}
			st.Items[r.ID] = r
			idMap[oldID] = r.ID
			ns := deepCopy(s).(map[string]any)
			ns["id"], ns["reportId"] = nextID(), r.ID
			snaps = append(snaps, ns)
		}
		cfg := remapReportIDs(deepCopy(src.Published.Config), idMap).(map[string]any)
		nw.Draft = deepCopy(cfg).(map[string]any)
		nw.Published = clonedDash(src.Published, nw, cfg, snaps, c.U.ID)
		nw.Published.FromSharedWorkspace = ptrB(true)
	} else {
		for _, r := range itemsOf(d.ID, "REPORT") {
			if r.WorkbookID != src.ID {
				continue
			}
			nr := *r
			nr.ID, nr.WorkbookID, nr.CreatedAt, nr.UpdatedAt, nr.CreatedBy, nr.FolderID = nextID(), nw.ID, t, t, c.U.ID, folder
			nr.PublicID = "rpt_" + randHex(6)
			nr.Meta = deepCopy(r.Meta).(map[string]any)
			nr.LastViewedAt, nr.Placements, nr.EmbedAccess = nil, nil, nil
			st.Items[nr.ID] = &nr
			idMap[r.ID] = nr.ID
		}
		if src.Draft != nil {
			nw.Draft = remapReportIDs(deepCopy(src.Draft), idMap).(map[string]any)
		}
		if src.Published != nil {
			cfg := remapReportIDs(deepCopy(src.Published.Config), idMap).(map[string]any)
			var snaps []map[string]any
			for _, s := range src.Published.ReportSnapshots {
				ns := remapReportIDs(deepCopy(s), idMap).(map[string]any)
				ns["id"] = nextID()
				snaps = append(snaps, ns)
			}
			nw.Published = clonedDash(src.Published, nw, cfg, snaps, c.U.ID)
		}
	}
	st.Items[nw.ID] = nw
	send(c, 200, wbOut(c.U, nw))
}

func clonedDash(src *Dashboard, nw *Item, cfg map[string]any, snaps []map[string]any, uid int) *Dashboard {
	nd := *src
	nd.ID, nd.PublicID, nd.WorkbookID, nd.VersionID = nextID(), "dsh_"+randHex(8), nw.ID, nextID()
	nd.AllowEmbed, nd.Status, nd.Config, nd.CreatedBy = false, "published", cfg, ptrI(uid)
	if snaps == nil {
		snaps = []map[string]any{}
	}
	nd.ReportSnapshots = snaps
	return &nd
}

// ---------- dashboard validation ----------

var widgetTypes = map[string]bool{"CHART": true, "TEXT": true, "FILTER": true, "AI": true, "TIME_GRAIN": true, "PARENT": true, "SPACER": true, "DIVIDER": true, "CONTAINER": true}

func validateDashboard(v any, path string) string {
	if v == nil {
		return ""
	}
	m, ok := v.(map[string]any)
	if !ok {
		return path + " must be an object"
	}
	if k, has := m["kind"]; has && k != nil && k != "CLASSIC" && k != "APP" {
		return path + ".kind must be CLASSIC or APP"
	}
	for _, f := range []string{"title", "description"} {
		if x, has := m[f]; has && x != nil {
			if _, isS := x.(string); !isS {
				return path + "." + f + " must be a string"
			}
		}
	}
	if app, has := m["app"]; has && app != nil {
		am, ok := app.(map[string]any)
		if !ok {
			return path + ".app must be an object"
		}
		if e, has := am["entry"]; has && e != nil {
			s, isS := e.(string)
			if !isS || len([]rune(s)) > 255 {
				return path + ".app.entry must be a string of at most 255 characters"
			}
		}
	}
	if w, has := m["widgets"]; has && w != nil {
		arr, ok := w.([]any)
		if !ok {
			return path + ".widgets must be an array"
		}
		for i, x := range arr {
			wm, ok := x.(map[string]any)
			p := fmt.Sprintf("%s.widgets[%d]", path, i)
			if !ok {
				return p + " must be an object"
			}
			if id, isS := wm["id"].(string); !isS || id == "" {
				return p + ".id is required"
			}
			t, _ := wm["type"].(string)
			if t == "TABS_CONTAINER" {
				wm["type"] = "CONTAINER"
				cfg, _ := wm["config"].(map[string]any)
				if cfg == nil {
					cfg = map[string]any{}
				}
				cfg["layout"] = "tabs"
				wm["config"] = cfg
			} else if !widgetTypes[t] {
				return p + ".type is not a valid widget type"
			}
			pos, ok := wm["position"].(map[string]any)
			if !ok {
				return p + ".position is required"
			}
			for _, k := range []string{"x", "y", "w", "h"} {
				if _, ok := asInt(pos[k]); !ok {
					return p + ".position." + k + " must be an integer"
				}
			}
		}
	}
	return ""
}

// ---------- E11 ----------

func slugTitle(s string) string {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	if len(parts) == 0 {
		return s
	}
	return strings.Join(parts, " ")
}

func hUpsertBySlug(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	slug := strings.ToLower(strings.TrimSpace(c.P["slug"]))
	if slug == "" || len(slug) > 191 || strings.ContainsAny(slug, "\x00\r\n\t") {
		failField(c, "slug", "slug must be 1..191 characters without control characters")
		return
	}
	name, hasName, ok := c.str("name", false)
	if !ok {
		return
	}
	if hasName && strings.TrimSpace(name) == "" {
		failField(c, "name", "name must not be empty")
		return
	}
	meta, hasMeta, ok := c.obj("meta", false)
	if !ok {
		return
	}
	if hasMeta {
		if dd, has := meta["dashboardDraft"]; has {
			if msg := validateDashboard(dd, "meta.dashboardDraft"); msg != "" {
				failField(c, "meta.dashboardDraft", msg)
				return
			}
		}
	}
	var folder *int
	hasFolder := false
	if v, has := c.body["folderId"]; has {
		hasFolder = true
		if v != nil {
			n, ok := asInt(v)
			if !ok || n < 0 {
				failField(c, "folderId", "folderId must be an integer or null")
				return
			}
			if n != 0 {
				folder = &n
			}
		}
	}
	var existing *Item
	for _, it := range itemsOf(d.ID, "WORKBOOK") {
		if it.Slug != nil && *it.Slug == slug {
			existing = it
		}
	}
	var dest *Item
	if folder != nil {
		dest = st.Items[*folder]
		if dest == nil || dest.DeploymentID != d.ID || dest.Type != "FOLDER" {
			fail(c, 404, "folder_not_found", fmt.Sprintf("folder %d not found", *folder))
			return
		}
	}
	if existing != nil {
		if !canRead(c.U, existing) || !canEdit(c.U, existing) {
			fail(c, 403, "forbidden", "no edit access to the workbook holding this slug")
			return
		}
		if hasFolder {
			if !canManage(c.U, existing) || (dest != nil && !canEdit(c.U, dest)) || (dest == nil && c.U.Role < RoleAIBI) {
				fail(c, 403, "forbidden", "moving requires manage access to the workbook and edit access to the destination")
				return
			}
		}
		changed := false
		if hasName && name != existing.Name {
			existing.Name, changed = name, true
		}
		if hasFolder && !eqIntPtr(existing.FolderID, folder) {
			existing.FolderID, changed = folder, true
		}
		if hasMeta {
			nm := deepCopy(existing.Meta).(map[string]any)
			for k, v := range meta {
				nm[k] = v
			}
			if !jsonEq(nm, existing.Meta) {
				existing.Meta, changed = nm, true
				if dd, ok := nm["dashboardDraft"].(map[string]any); ok {
					existing.Draft = deepCopy(dd).(map[string]any)
				}
			}
		}
		if changed {
			existing.UpdatedAt = now()
		}
		send(c, 200, wbOut(c.U, existing))
		return
	}
	if !needRole(c, RoleAIBI) {
		return
	}
	if dest != nil && !canEdit(c.U, dest) {
		fail(c, 403, "forbidden", "no edit access to the destination folder")
		return
	}
	if d.WorkbookLimit > 0 && workbookCount(d.ID) >= d.WorkbookLimit {
		fail(c, 400, "workbook_limit_reached", fmt.Sprintf("the plan allows %d workbooks in this deployment", d.WorkbookLimit))
		return
	}
	if !hasName {
		name = slugTitle(slug)
	}
	t := now()
	it := &Item{ID: nextID(), DeploymentID: d.ID, Type: "WORKBOOK", Name: name, Meta: map[string]any{}, CalculatedFields: map[string]any{}, CreatedAt: t, UpdatedAt: t, CreatedBy: c.U.ID, FolderID: folder, Slug: ptrS(slug)}
	if hasMeta {
		it.Meta = deepCopy(meta).(map[string]any)
		if dd, ok := meta["dashboardDraft"].(map[string]any); ok {
			it.Draft = deepCopy(dd).(map[string]any)
		}
	}
	st.Items[it.ID] = it
	send(c, 200, wbOut(c.U, it))
}

func eqIntPtr(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ---------- E12 ----------

type itemRef struct {
	Type string `json:"type"`
	ID   int    `json:"id"`
}

type itemErr struct {
	Message string `json:"message"`
	Status  int    `json:"status"`
}

type failedRef struct {
	Type  string  `json:"type"`
	ID    int     `json:"id"`
	Error itemErr `json:"error"`
}

func parseRefs(c *Ctx) ([]itemRef, bool) {
	raw, has := c.body["items"]
	if !has {
		failField(c, "items", "items is required")
		return nil, false
	}
	arr, ok := raw.([]any)
	if !ok {
		failField(c, "items", "items must be an array")
		return nil, false
	}
	var refs []itemRef
	seen := map[itemRef]bool{}
	for i, x := range arr {
		m, ok := x.(map[string]any)
		if !ok {
			failField(c, fmt.Sprintf("items[%d]", i), "each item must be an object {type, id}")
			return nil, false
		}
		t, _ := m["type"].(string)
		if t != "WORKBOOK" && t != "REPORT" && t != "FOLDER" {
			failField(c, fmt.Sprintf("items[%d].type", i), "type must be WORKBOOK, REPORT or FOLDER")
			return nil, false
		}
		id, ok := asInt(m["id"])
		if !ok {
			failField(c, fmt.Sprintf("items[%d].id", i), "id must be an integer")
			return nil, false
		}
		r := itemRef{t, id}
		if !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		failField(c, "items", "items must contain at least one entry")
		return nil, false
	}
	if len(refs) > 100 {
		failField(c, "items", "at most 100 distinct items per request")
		return nil, false
	}
	return refs, true
}

func moveOne(u *User, d *Deployment, r itemRef, dest *int) (*Item, int, string) {
	it := st.Items[r.ID]
	if it == nil || it.DeploymentID != d.ID || it.Type != r.Type {
		return nil, 404, fmt.Sprintf("%s %d not found", strings.ToLower(r.Type), r.ID)
	}
	if !canRead(u, it) || !canManage(u, it) {
		return nil, 403, "you may not move this item"
	}
	var df *Item
	if dest != nil {
		df = st.Items[*dest]
		if df == nil || df.DeploymentID != d.ID || df.Type != "FOLDER" {
			return nil, 400, fmt.Sprintf("destination folder %d does not exist", *dest)
		}
		if !canEdit(u, df) {
			return nil, 403, "no edit access to the destination folder"
		}
		if it.Type == "FOLDER" {
			if df.ID == it.ID {
				return nil, 400, "a folder cannot be moved into itself"
			}
			for _, a := range df.ancestors() {
				if a.ID == it.ID {
					return nil, 400, "a folder cannot be moved into its own descendant"
				}
			}
			if depth(df)+subtreeDepth(it) > maxFolderDepth {
				return nil, 400, fmt.Sprintf("folders may be nested at most %d levels deep", maxFolderDepth)
			}
		}
	} else if u.Role < RoleAIBI {
		return nil, 403, "moving to the workspace root requires the ai_bi_user role"
	}
	it.FolderID = dest
	it.UpdatedAt = now()
	return it, 200, ""
}

func subtreeDepth(f *Item) int {
	best := 1
	for _, it := range st.Items {
		if it.Type == "FOLDER" && it.FolderID != nil && *it.FolderID == f.ID {
			if x := 1 + subtreeDepth(it); x > best {
				best = x
			}
		}
	}
	return best
}

func hBulkMove(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	var dest *int
	if v, has := c.body["folderId"]; has && v != nil {
		n, ok := asInt(v)
		if !ok || n < 0 {
			failField(c, "folderId", "folderId must be an integer or null")
			return
		}
		if n != 0 {
			dest = &n
		}
	}
	refs, ok := parseRefs(c)
	if !ok {
		return
	}
	moved := []WorkbookOut{}
	failed := []failedRef{}
	for _, r := range refs {
		it, status, msg := moveOne(c.U, d, r, dest)
		if it == nil {
			failed = append(failed, failedRef{r.Type, r.ID, itemErr{msg, status}})
			continue
		}
		moved = append(moved, wbOut(c.U, it))
	}
	send(c, 200, map[string]any{"moved": moved, "failed": failed})
}

// ---------- bulk delete ----------

func hBulkDelete(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	refs, ok := parseRefs(c)
	if !ok {
		return
	}
	deleted := []itemRef{}
	failed := []failedRef{}
	for _, r := range refs {
		it := st.Items[r.ID]
		if it == nil || it.DeploymentID != d.ID || it.Type != r.Type {
			failed = append(failed, failedRef{r.Type, r.ID, itemErr{"not found", 404}})
			continue
		}
		if !canManage(c.U, it) && !(it.Type == "REPORT" && canEdit(c.U, it)) {
			failed = append(failed, failedRef{r.Type, r.ID, itemErr{"you may not delete this item", 403}})
			continue
		}
		if it.Type == "FOLDER" && hasSubfolders(it.ID) {
			failed = append(failed, failedRef{r.Type, r.ID, itemErr{"the folder still has sub-folders", 400}})
			continue
		}
		deleteItem(it)
		deleted = append(deleted, r)
	}
	send(c, 200, map[string]any{"deleted": deleted, "failed": failed})
}

func hasSubfolders(id int) bool {
	for _, x := range st.Items {
		if x.Type == "FOLDER" && x.FolderID != nil && *x.FolderID == id {
			return true
		}
	}
	return false
}

func deleteItem(it *Item) {
	delete(st.Items, it.ID)
	for _, x := range st.Items {
		if it.Type == "FOLDER" && x.FolderID != nil && *x.FolderID == it.ID {
			x.FolderID = nil
		}
		if it.Type == "WORKBOOK" && x.Type == "REPORT" && x.WorkbookID == it.ID {
			delete(st.Items, x.ID)
		}
	}
}

// ---------- E13 / env vars ----------

var secretWords = []string{"PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"}

func masked(e EnvVar) EnvVar {
	up := strings.ToUpper(e.Name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return EnvVar{e.Name, "[ENCRYPTED]"}
		}
	}
	return e
}

func sortedVars(d *Deployment) []EnvVar {
	out := []EnvVar{}
	for _, e := range d.EnvVars {
		out = append(out, masked(e))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func hListEnvVars(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	all := sortedVars(d)
	s, e, pi, ok := cursorWindow(c, len(all), defaultCursorPage)
	if !ok {
		return
	}
	send(c, 200, map[string]any{"items": all[s:e], "data": all[s:e], "pageInfo": pi})
}

var envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func hPutEnvVars(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	raw, has := c.body["env_variables"]
	if !has {
		raw, has = c.body["envVariables"]
	}
	arr, ok := raw.([]any)
	if !has || !ok {
		failField(c, "env_variables", "env_variables must be an array of {name, value}")
		return
	}
	var upd []EnvVar
	for i, x := range arr {
		m, ok := x.(map[string]any)
		n, ok1 := m["name"].(string)
		v, ok2 := m["value"].(string)
		if !ok || !ok1 || !ok2 {
			failField(c, fmt.Sprintf("env_variables[%d]", i), "each entry needs string name and value")
			return
		}
		if !envNameRe.MatchString(n) {
			failField(c, fmt.Sprintf("env_variables[%d].name", i), "name must match ^[A-Za-z_][A-Za-z0-9_]*$")
			return
		}
		if v == "[ENCRYPTED]" {
			failField(c, fmt.Sprintf("env_variables[%d].value", i), "the [ENCRYPTED] placeholder cannot be stored as a value")
			return
		}
		upd = append(upd, EnvVar{n, v})
	}
	for _, u := range upd {
		found := false
		for i := range d.EnvVars {
			if d.EnvVars[i].Name == u.Name {
				d.EnvVars[i].Value, found = u.Value, true
			}
		}
		if !found {
			d.EnvVars = append(d.EnvVars, u)
		}
	}
	addAudit(c, "Env vars updated", d.ID, map[string]any{"count": len(upd)})
	hListEnvVars(c)
}
