package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ---------- folders ----------

func folderOut(it *Item) map[string]any {
	o := map[string]any{"id": it.ID, "name": it.Name, "position": it.Position, "deploymentId": it.DeploymentID, "createdAt": it.CreatedAt, "updatedAt": it.UpdatedAt,
		"type": "FOLDER", "parentId": it.FolderID, "createdBy": it.CreatedBy, "restricted": it.Restricted}
	w := wbOut(nil, it)
	o["user"] = w.User
	fp := []PathEntry{}
	anc := it.ancestors()
	for i := len(anc) - 1; i >= 0; i-- {
		fp = append(fp, PathEntry{anc[i].ID, anc[i].Name})
	}
	o["folderPath"] = fp
	return o
}

func hListFolders(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	var parent *int
	if s, ok := c.q("parentId"); ok && s != "" && s != "null" && s != "0" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			failField(c, "parentId", "parentId must be a non-negative integer")
			return
		}
		parent = &n
	}
	var fs []*Item
	for _, it := range itemsOf(d.ID, "FOLDER") {
		if canRead(c.U, it) && eqIntPtr(it.FolderID, parent) {
			fs = append(fs, it)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool { return strings.ToLower(fs[i].Name) < strings.ToLower(fs[j].Name) })
	out := []map[string]any{}
	for _, f := range fs {
		out = append(out, folderOut(f))
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func hCreateFolder(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleAIBI) {
		return
	}
	name, _, ok := c.str("name", true)
	if !ok {
		return
	}
	if strings.TrimSpace(name) == "" {
		failField(c, "name", "name must not be empty")
		return
	}
	pid, hasP, ok := c.integer("parentId", false)
	if !ok {
		return
	}
	pos, _, ok := c.integer("position", false)
	if !ok {
		return
	}
	var parent *int
	if hasP && pid != 0 {
		p := st.Items[pid]
		if p == nil || p.DeploymentID != d.ID || p.Type != "FOLDER" {
			fail(c, 404, "folder_not_found", fmt.Sprintf("parent folder %d not found", pid))
			return
		}
		if !canEdit(c.U, p) {
			fail(c, 403, "forbidden", "no edit access to the parent folder")
			return
		}
		if depth(p)+1 > maxFolderDepth {
			failField(c, "parentId", fmt.Sprintf("folders may be nested at most %d levels deep", maxFolderDepth))
			return
		}
		parent = &pid
	}
	t := now()
	it := &Item{ID: nextID(), DeploymentID: d.ID, Type: "FOLDER", Name: name, Meta: map[string]any{}, CalculatedFields: map[string]any{}, CreatedAt: t, UpdatedAt: t, CreatedBy: c.U.ID, FolderID: parent, Position: pos}
	st.Items[it.ID] = it
	send(c, 201, folderOut(it))
}

func hGetFolder(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	it := getItem(c, d, c.P["folderId"], "FOLDER")
	if it == nil {
		return
	}
	if !canRead(c.U, it) {
		fail(c, 403, "forbidden", "no read access to this folder")
		return
	}
	send(c, 200, folderOut(it))
}

func hDeleteFolder(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	it := getItem(c, d, c.P["folderId"], "FOLDER")
	if it == nil {
		return
	}
	if !canManage(c.U, it) {
		fail(c, 403, "forbidden", "manage access is required to delete a folder")
		return
	}
	if hasSubfolders(it.ID) {
		fail(c, 400, "folder_not_empty", "the folder still has sub-folders")
		return
	}
	out := folderOut(it)
	deleteItem(it)
	send(c, 200, out)
}

// ---------- reports ----------

func reportOut(it *Item) map[string]any {
	w := wbOut(nil, it)
	o := map[string]any{"id": it.ID, "deploymentId": it.DeploymentID, "name": it.Name, "type": "REPORT", "publicId": it.PublicID, "workbookId": nilIfZero(it.WorkbookID),
		"kind": nilIfEmpty(it.Kind), "sqlQuery": nilIfEmpty(it.SQL), "meta": w.Meta, "calculatedFields": w.CalculatedFields, "folderId": it.FolderID, "createdAt": it.CreatedAt, "updatedAt": it.UpdatedAt,
		"createdBy": it.CreatedBy, "user": w.User, "lastViewedAt": it.LastViewedAt, "placements": placementsOf(it)}
	return o
}

func placementsOf(it *Item) []map[string]any {
	if it.Placements == nil {
		return []map[string]any{}
	}
	return it.Placements
}

func hListReports(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	sortBy, _ := c.q("sortBy")
	switch sortBy {
	case "", "createdAt", "updatedAt", "lastViewedAt", "name":
	default:
		failField(c, "sortBy", "sortBy must be one of createdAt, updatedAt, lastViewedAt, name")
		return
	}
	var folder *int
	folderSet := false
	if s, ok := c.q("folderId"); ok && s != "" {
		folderSet = true
		if s != "null" && s != "0" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				failField(c, "folderId", "folderId must be a non-negative integer")
				return
			}
			folder = &n
		}
	}
	ext, _ := c.q("externalWorkbookId")
	search, _ := c.q("search")
	var rs []*Item
	for _, it := range itemsOf(d.ID, "REPORT") {
		if !canRead(c.U, it) || folderSet && !eqIntPtr(folder, it.FolderID) {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(it.Name), strings.ToLower(search)) {
			continue
		}
		if ext != "" {
			hit := false
			for _, p := range it.Placements {
				if p["externalWorkbookId"] == ext {
					hit = true
				}
			}
			if !hit {
				continue
			}
		}
		rs = append(rs, it)
	}
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		switch sortBy {
		case "name":
			return strings.ToLower(a.Name) < strings.ToLower(b.Name)
		case "updatedAt":
			return a.UpdatedAt.After(b.UpdatedAt)
		case "lastViewedAt":
			if a.LastViewedAt == nil || b.LastViewedAt == nil {
				return a.LastViewedAt != nil
			}
			return a.LastViewedAt.After(*b.LastViewedAt)
		}
		if a.CreatedAt.Equal(b.CreatedAt) {
			return a.ID > b.ID
		}
		return a.CreatedAt.After(b.CreatedAt)
	})
	out := []map[string]any{}
	for _, r := range rs {
		out = append(out, reportOut(r))
	}
	if sortBy == "lastViewedAt" {
		_, hf := c.q("first")
		_, ha := c.q("after")
		if hf || ha {
			fail(c, 400, "cursor_not_supported", "cursor pagination is not available when sorting by lastViewedAt")
			return
		}
		send(c, 200, map[string]any{"items": out, "data": out, "count": len(out), "pageInfo": PageInfo{}})
		return
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func hUpsertReportByPublicID(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	pid := strings.TrimSpace(c.P["publicId"])
	name, hasName, ok := c.str("name", false)
	if !ok {
		return
	}
	sql, hasSQL, ok := c.str("sqlQuery", false)
	if !ok {
		return
	}
	kind, hasKind, ok := c.str("kind", false)
	if !ok {
		return
	}
	if hasKind && kind != "vega" && kind != "table" && kind != "kpi" && kind != "html" && kind != "map" {
		failField(c, "kind", "kind must be one of vega, table, kpi, html, map")
		return
	}
	meta, hasMeta, ok := c.obj("meta", false)
	if !ok {
		return
	}
	wbID, hasWB, ok := c.integer("workbookId", false)
	if !ok {
		return
	}
	var wb *Item
	if hasWB {
		wb = st.Items[wbID]
		if wb == nil || wb.DeploymentID != d.ID || wb.Type != "WORKBOOK" {
			fail(c, 404, "workbook_not_found", fmt.Sprintf("workbook %d not found", wbID))
			return
		}
		if !canEdit(c.U, wb) {
			fail(c, 403, "forbidden", "no edit access to the workbook")
			return
		}
	}
	var ex *Item
	for _, it := range itemsOf(d.ID, "REPORT") {
		if it.PublicID == pid {
			ex = it
		}
	}
	t := now()
	if ex != nil {
		if !canEdit(c.U, ex) {
			fail(c, 403, "forbidden", "no edit access to this report")
			return
		}
		if hasName {
			ex.Name = name
		}
		if hasSQL {
			ex.SQL = sql
		}
		if hasKind {
			ex.Kind = kind
		}
		if hasMeta {
			for k, v := range meta {
				ex.Meta[k] = v
			}
		}
		if hasWB {
			ex.WorkbookID, ex.FolderID = wb.ID, wb.FolderID
		}
		ex.UpdatedAt = t
		send(c, 200, reportOut(ex))
		return
	}
	if !needRole(c, RoleAIBI) {
		return
	}
	if !hasName {
		name = "Untitled report"
	}
	r := &Item{ID: nextID(), DeploymentID: d.ID, Type: "REPORT", Name: name, Meta: map[string]any{}, CalculatedFields: map[string]any{}, CreatedAt: t, UpdatedAt: t, CreatedBy: c.U.ID, PublicID: pid, SQL: sql, Kind: kind}
	if hasMeta {
		r.Meta = deepCopy(meta).(map[string]any)
	}
	if wb != nil {
		r.WorkbookID, r.FolderID = wb.ID, wb.FolderID
	}
	st.Items[r.ID] = r
	send(c, 201, reportOut(r))
}

var cellRe = func(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i == 0 || i == len(s) {
		return false
	}
	_, err := strconv.Atoi(s[i:])
	return err == nil
}

// placement address: placementId, or externalWorkbookId + sheetName + anchorCell
func findPlacement(c *Ctx, r *Item, fromQuery bool) (int, bool) {
	get := func(k string) (string, bool) {
		if fromQuery {
			if v, ok := c.q(k); ok && v != "" {
				return v, true
			}
		}
		if v, ok := c.body[k]; ok && v != nil {
			return fmt.Sprint(v), true
		}
		return "", false
	}
	if pid, ok := get("placementId"); ok {
		for i, p := range r.Placements {
			if fmt.Sprint(p["placementId"]) == pid {
				return i, true
			}
		}
		fail(c, 404, "placement_not_found", "placement "+pid+" not found")
		return -1, false
	}
	ew, ok1 := get("externalWorkbookId")
	sh, ok2 := get("sheetName")
	ac, ok3 := get("anchorCell")
	if !ok1 || !ok2 || !ok3 {
		failField(c, "placementId", "address the placement by placementId or by externalWorkbookId + sheetName + anchorCell")
		return -1, false
	}
	for i, p := range r.Placements {
		if p["externalWorkbookId"] == ew && p["sheetName"] == sh && p["anchorCell"] == ac {
			return i, true
		}
	}
	fail(c, 404, "placement_not_found", "no placement at that address")
	return -1, false
}

func reportFor(c *Ctx) (*Deployment, *Item) {
	d := dep(c)
	if d == nil {
		return nil, nil
	}
	r := getItem(c, d, c.P["reportId"], "REPORT")
	if r == nil {
		return nil, nil
	}
	if !canRead(c.U, r) {
		fail(c, 403, "forbidden", "no read access to this report")
		return nil, nil
	}
	return d, r
}

func hConnectWorkbook(c *Ctx) {
	_, r := reportFor(c)
	if r == nil {
		return
	}
	ew, _, ok := c.str("externalWorkbookId", true)
	if !ok {
		return
	}
	sh, _, ok := c.str("sheetName", true)
	if !ok {
		return
	}
	ac, _, ok := c.str("anchorCell", true)
	if !ok {
		return
	}
	ac = strings.ToUpper(ac)
	if !cellRe(ac) {
		failField(c, "anchorCell", "anchorCell must be an A1-style cell reference")
		return
	}
	for _, p := range r.Placements {
		if p["externalWorkbookId"] == ew && p["sheetName"] == sh && p["anchorCell"] == ac {
			send(c, 200, p)
			return
		}
	}
	p := map[string]any{"placementId": "plc_" + randHex(6), "reportId": r.ID, "externalWorkbookId": ew, "sheetName": sh, "anchorCell": ac, "createdAt": now(), "lastRefreshedAt": nil, "createdBy": c.U.ID}
	r.Placements = append(r.Placements, p)
	send(c, 201, p)
}

func hDisconnectWorkbook(c *Ctx) {
	_, r := reportFor(c)
	if r == nil {
		return
	}
	i, ok := findPlacement(c, r, true)
	if !ok {
		return
	}
	p := r.Placements[i]
	r.Placements = append(r.Placements[:i:i], r.Placements[i+1:]...)
	send(c, 200, p)
}

func hRefreshPlacement(c *Ctx) {
	_, r := reportFor(c)
	if r == nil {
		return
	}
	i, ok := findPlacement(c, r, false)
	if !ok {
		return
	}
	r.Placements[i]["lastRefreshedAt"] = now()
	r.Placements[i]["rowCount"] = 42
	send(c, 200, r.Placements[i])
}

// ---------- embed access ----------

func embedAccessOut(it *Item) map[string]any {
	tenants := []map[string]any{}
	all := "none"
	keys := []string{}
	for k := range it.EmbedAccess {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "*" {
			all = it.EmbedAccess[k]
			continue
		}
		id, _ := strconv.Atoi(k)
		tenants = append(tenants, map[string]any{"tenantId": id, "action": it.EmbedAccess[k]})
	}
	return map[string]any{"workbookId": it.ID, "allEmbedUsers": all, "tenants": tenants}
}

func hGetEmbedAccess(c *Ctx) {
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
	send(c, 200, embedAccessOut(it))
}

func hPutEmbedAccess(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	it := getItem(c, d, c.P["workbookId"], "WORKBOOK")
	if it == nil {
		return
	}
	if !canManage(c.U, it) {
		fail(c, 403, "forbidden", "manage access is required to change embed access")
		return
	}
	action, _, ok := c.str("action", true)
	if !ok {
		return
	}
	if action != "read" && action != "none" {
		failField(c, "action", "action must be read or none")
		return
	}
	tid, hasT, ok := c.integer("tenantId", false)
	if !ok {
		return
	}
	key := "*"
	if hasT {
		if _, t := coll("embedTenants").byID(strconv.Itoa(tid), nil); t == nil {
			fail(c, 404, "embed_tenant_not_found", fmt.Sprintf("embed tenant %d not found", tid))
			return
		}
		key = strconv.Itoa(tid)
	}
	if it.EmbedAccess == nil {
		it.EmbedAccess = map[string]string{}
	}
	it.EmbedAccess[key] = action
	send(c, 200, embedAccessOut(it))
}

// ---------- embed dashboards ----------

func findDash(c *Ctx) (*Item, *Dashboard) {
	pid := c.P["publicId"]
	for _, it := range st.Items {
		if it.Published != nil && it.Published.PublicID == pid && (c.U.ScopeDep == 0 || c.U.ScopeDep == it.DeploymentID) {
			if !canRead(c.U, it) {
				break
			}
			return it, it.Published
		}
	}
	fail(c, 404, "dashboard_not_found", "dashboard "+pid+" not found")
	return nil, nil
}

func hPatchEmbedDashboard(c *Ctx) {
	it, ds := findDash(c)
	if ds == nil {
		return
	}
	if !canManage(c.U, it) {
		fail(c, 403, "forbidden", "manage access is required to change signed embedding")
		return
	}
	key := "allowEmbed"
	if !c.has(key) && c.has("enabled") {
		key = "enabled"
	}
	v, _, ok := c.boolean(key, true)
	if !ok {
		return
	}
	ds.AllowEmbed = v
	send(c, 200, ds)
}

func hPythonRun(c *Ctx) {
	it, ds := findDash(c)
	if ds == nil {
		return
	}
	_ = it
	rid, hasR, ok := c.integer("reportId", true)
	if !ok {
		return
	}
	_ = hasR
	found := false
	for _, s := range ds.ReportSnapshots {
		if x, _ := asInt(s["reportId"]); x == rid {
			found = true
		}
	}
	if !found {
		fail(c, 404, "report_not_found", fmt.Sprintf("report %d is not part of this dashboard", rid))
		return
	}
	filters, has := c.body["filters"]
	if has && filters != nil {
		if _, isA := filters.([]any); !isA {
			failField(c, "filters", "filters must be an array")
			return
		}
	}
	t := now()
	send(c, 200, map[string]any{"runId": "run_" + randHex(6), "reportId": rid, "status": "completed", "startedAt": t, "finishedAt": t.Add(420 * time.Millisecond),
		"output": map[string]any{"html": "<div>ok</div>", "stdout": "rows=42\n"}, "appliedFilters": filters})
}
