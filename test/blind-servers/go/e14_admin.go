package main

import (
	"fmt"
	"net/mail"
	"sort"
	"strconv"
	"strings"
)

// ---------- users ----------

func hListUsers(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	search, _ := c.q("search")
	var us []*User
	for _, u := range st.Users {
		if search != "" && !strings.Contains(strings.ToLower(u.Email+" "+u.FirstName+" "+u.LastName), strings.ToLower(search)) {
			continue
		}
		us = append(us, u)
	}
	sort.Slice(us, func(i, j int) bool { return strings.ToLower(us[i].Email) < strings.ToLower(us[j].Email) })
	out := []map[string]any{}
	for _, u := range us {
		out = append(out, u.out())
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func userByPath(c *Ctx, key string) *User {
	id, err := strconv.Atoi(c.P[key])
	u := st.Users[id]
	if err != nil || u == nil {
		fail(c, 404, "user_not_found", "user "+c.P[key]+" not found")
		return nil
	}
	return u
}

func hGetUser(c *Ctx) {
	u := userByPath(c, "userId")
	if u == nil {
		return
	}
	if c.U.Role < RoleAdmin && c.U.ID != u.ID {
		fail(c, 403, "insufficient_role", "only admins may read other users")
		return
	}
	send(c, 200, u.out())
}

func hCreateUser(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	email, _, ok := c.str("email", true)
	if !ok {
		return
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		failField(c, "email", "email must be a valid address")
		return
	}
	for _, u := range st.Users {
		if strings.EqualFold(u.Email, email) {
			fail(c, 409, "user_exists", "a user with this email already exists")
			return
		}
	}
	role := RoleViewer
	if s, has, ok := c.str("role", false); !ok {
		return
	} else if has {
		r, good := roleFromName(s)
		if !good {
			failField(c, "role", "role must be one of viewer, ai_bi_user, developer, admin")
			return
		}
		role = r
	}
	fn, _, ok := c.str("firstName", false)
	if !ok {
		return
	}
	ln, _, ok := c.str("lastName", false)
	if !ok {
		return
	}
	id := 1
	for k := range st.Users {
		if k >= id {
			id = k + 1
		}
	}
	u := &User{ID: id, Email: email, FirstName: fn, LastName: ln, Role: role, Active: true, CreatedAt: now()}
	st.Users[id] = u
	addAudit(c, "User invited", 0, map[string]any{"email": email})
	send(c, 201, u.out())
}

func hUpdateUser(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	u := userByPath(c, "userId")
	if u == nil {
		return
	}
	nu := *u
	if s, has, ok := c.str("role", false); !ok {
		return
	} else if has {
		r, good := roleFromName(s)
		if !good {
			failField(c, "role", "role must be one of viewer, ai_bi_user, developer, admin")
			return
		}
		nu.Role = r
	}
	if s, has, ok := c.str("firstName", false); !ok {
		return
	} else if has {
		nu.FirstName = s
	}
	if s, has, ok := c.str("lastName", false); !ok {
		return
	} else if has {
		nu.LastName = s
	}
	if s, has, ok := c.str("status", false); !ok {
		return
	} else if has {
		if s != "active" && s != "deactivated" {
			failField(c, "status", "status must be active or deactivated")
			return
		}
		nu.Active = s == "active"
	}
	if v, has := c.body["permissions"]; has {
		arr, ok := v.([]any)
		if !ok {
			failField(c, "permissions", "permissions must be an array of strings")
			return
		}
		nu.Perms = nil
		for _, x := range arr {
			s, ok := x.(string)
			if !ok {
				failField(c, "permissions", "permissions must be an array of strings")
				return
			}
			nu.Perms = append(nu.Perms, s)
		}
	}
	if nu.ID == c.U.ID && (!nu.Active || nu.Role < RoleAdmin) {
		fail(c, 409, "self_demotion", "you cannot deactivate or demote yourself")
		return
	}
	*u = nu
	send(c, 200, u.out())
}

func hBulkUsers(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	action, _, ok := c.str("action", true)
	if !ok {
		return
	}
	if action != "DEACTIVATE" && action != "ACTIVATE" && action != "DELETE" {
		failField(c, "action", "action must be DEACTIVATE, ACTIVATE or DELETE")
		return
	}
	arr, ok := c.body["userIds"].([]any)
	if !ok || len(arr) == 0 || len(arr) > 100 {
		failField(c, "userIds", "userIds must be an array of 1..100 user ids")
		return
	}
	succeeded := []int{}
	failed := []map[string]any{}
	seen := map[int]bool{}
	for i, x := range arr {
		id, ok := asInt(x)
		if !ok {
			failField(c, fmt.Sprintf("userIds[%d]", i), "user ids must be integers")
			return
		}
		if seen[id] {
			continue
		}
		seen[id] = true
	}
	for _, x := range arr {
		id, _ := asInt(x)
		if !seen[id] {
			continue
		}
		seen[id] = false
		u := st.Users[id]
		switch {
		case u == nil:
			failed = append(failed, map[string]any{"id": id, "error": itemErr{"user not found", 404}})
		case u.ID == c.U.ID && action != "ACTIVATE":
			failed = append(failed, map[string]any{"id": id, "error": itemErr{"you cannot apply this action to yourself", 400}})
		default:
			switch action {
			case "DEACTIVATE":
				u.Active = false
			case "ACTIVATE":
				u.Active = true
			case "DELETE":
				delete(st.Users, id)
			}
			succeeded = append(succeeded, id)
		}
	}
	send(c, 200, map[string]any{"action": action, "succeeded": succeeded, "failed": failed})
}

// ---------- user attributes ----------

var attrTypes = map[string]bool{"string": true, "number": true, "boolean": true, "string_array": true, "number_array": true}

func valueFits(t string, v any) bool {
	if v == nil {
		return true
	}
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string_array", "number_array":
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range arr {
			if !valueFits(strings.TrimSuffix(t, "_array"), x) || x == nil {
				return false
			}
		}
		return true
	}
	return false
}

func validateAttr(c *Ctx, m map[string]any, create bool) bool {
	t, _ := m["type"].(string)
	if !attrTypes[t] {
		failField(c, "type", "type must be one of string, number, boolean, string_array, number_array")
		return false
	}
	if n, _ := m["name"].(string); !envNameRe.MatchString(n) {
		failField(c, "name", "name must match ^[A-Za-z_][A-Za-z0-9_]*$")
		return false
	}
	if !valueFits(t, m["defaultValue"]) {
		failField(c, "defaultValue", "defaultValue does not match the attribute type")
		return false
	}
	return true
}

func hGetAttrValues(c *Ctx) {
	u := userByPath(c, "userId")
	if u == nil {
		return
	}
	if c.U.Role < RoleAdmin && c.U.ID != u.ID {
		fail(c, 403, "insufficient_role", "only admins may read other users' attributes")
		return
	}
	out := []map[string]any{}
	for _, v := range coll("userAttributeValues").Items {
		if v["userId"] == u.ID {
			out = append(out, v)
		}
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func hPutAttrValues(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	u := userByPath(c, "userId")
	if u == nil {
		return
	}
	arr, ok := c.body["values"].([]any)
	if !ok {
		failField(c, "values", "values must be an array of {attributeId, value}")
		return
	}
	type kv struct {
		a map[string]any
		v any
	}
	var sets []kv
	for i, x := range arr {
		m, _ := x.(map[string]any)
		aid, ok := asInt(m["attributeId"])
		if !ok {
			failField(c, fmt.Sprintf("values[%d].attributeId", i), "attributeId must be an integer")
			return
		}
		_, a := coll("userAttributes").byID(strconv.Itoa(aid), nil)
		if a == nil {
			fail(c, 404, "attribute_not_found", fmt.Sprintf("user attribute %d not found", aid))
			return
		}
		if !valueFits(a["type"].(string), m["value"]) {
			failField(c, fmt.Sprintf("values[%d].value", i), "value does not match the attribute type "+a["type"].(string))
			return
		}
		sets = append(sets, kv{a, m["value"]})
	}
	vc := coll("userAttributeValues")
	for _, s := range sets {
		i, ex := vc.find(func(m map[string]any) bool { return m["userId"] == u.ID && m["attributeId"] == s.a["id"] })
		if s.v == nil {
			if i >= 0 {
				vc.Items = append(vc.Items[:i:i], vc.Items[i+1:]...)
			}
			continue
		}
		if ex != nil {
			ex["value"] = s.v
		} else {
			vc.Items = append(vc.Items, map[string]any{"userId": u.ID, "attributeId": s.a["id"], "attributeName": s.a["name"], "value": s.v})
		}
	}
	hGetAttrValues(c)
}

// ---------- tenant settings ----------

func hGetTenant(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	send(c, 200, st.Tenant)
}

func hPutTenant(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	if v, has := c.body["defaultRole"]; has {
		s, _ := v.(string)
		if _, ok := roleFromName(s); !ok {
			failField(c, "defaultRole", "defaultRole must be a role name")
			return
		}
	}
	if v, has := c.body["sessionTimeoutMinutes"]; has {
		if n, ok := asInt(v); !ok || n < 5 || n > 43200 {
			failField(c, "sessionTimeoutMinutes", "sessionTimeoutMinutes must be an integer between 5 and 43200")
			return
		}
	}
	for k, v := range c.body {
		if k == "plan" {
			continue
		}
		st.Tenant[k] = v
	}
	send(c, 200, st.Tenant)
}

// ---------- github discovery ----------

func hGithubStatus(c *Ctx) {
	send(c, 200, map[string]any{"connected": true, "account": "acme-analytics", "appInstalled": true, "installations": 2})
}

var installations = []map[string]any{{"id": 71001, "account": "acme-analytics", "type": "Organization"}, {"id": 71002, "account": "dana-dev", "type": "User"}}

func hGithubInstallations(c *Ctx) { listCursor(c, installations, defaultCursorPage, nil) }

func hGithubRepos(c *Ctx) {
	id := c.P["installationId"]
	for _, in := range installations {
		if fmt.Sprint(in["id"]) == id {
			acc := in["account"].(string)
			out := []map[string]any{}
			for _, r := range []string{"cube-model", "analytics-infra", "dbt-project"} {
				out = append(out, map[string]any{"owner": acc, "name": r, "fullName": acc + "/" + r, "private": true, "defaultBranch": "main"})
			}
			listCursor(c, out, defaultCursorPage, nil)
			return
		}
	}
	fail(c, 404, "installation_not_found", "installation "+id+" not found")
}

func hGithubBranches(c *Ctx) {
	owner, repo := c.P["owner"], c.P["repo"]
	known := false
	for _, in := range installations {
		if in["account"] == owner {
			known = true
		}
	}
	if !known {
		fail(c, 404, "repository_not_found", "repository "+owner+"/"+repo+" not found")
		return
	}
	out := []map[string]any{}
	for _, b := range []string{"main", "staging", "feature-churn"} {
		out = append(out, map[string]any{"name": b, "sha": randHexStable(len(repo) + len(b)), "protected": b == "main"})
	}
	listCursor(c, out, defaultCursorPage, nil)
}

// ---------- generic CRUD ----------

type Crud struct {
	Coll      string
	Parents   [][2]string       // path param -> parent collection
	Fields    map[string]string // body field -> kind: string|int|bool|object|array|any
	Required  []string
	Unique    string
	ReadRole  int
	WriteRole int
	Secret    []string
	DepScoped bool
	Search    []string
	Validate  func(c *Ctx, m map[string]any, create bool) bool
	IDParam   string
}

func (s Crud) scope(c *Ctx) (map[string]any, bool) {
	p := map[string]any{}
	if s.DepScoped {
		d := dep(c)
		if d == nil {
			return nil, false
		}
		p["deploymentId"] = d.ID
	}
	for _, pp := range s.Parents {
		raw := c.P[pp[0]]
		key := strings.TrimSuffix(pp[0], "Id") + "Id"
		pc := coll(pp[1])
		filter := map[string]any{}
		for k, v := range p {
			filter[k] = v
		}
		if _, m := pc.byID(raw, filter); m == nil {
			fail(c, 404, "not_found", fmt.Sprintf("%s %s not found", strings.TrimSuffix(pp[0], "Id"), raw))
			return nil, false
		}
		n, _ := strconv.Atoi(raw)
		p[key] = n
	}
	return p, true
}

func (s Crud) out(m map[string]any) map[string]any {
	o := map[string]any{}
	for k, v := range m {
		o[k] = v
	}
	for _, k := range s.Secret {
		_, has := o[k]
		delete(o, k)
		o[k+"Configured"] = has && m[k] != nil && m[k] != ""
	}
	return o
}

func (s Crud) checkFields(c *Ctx, create bool) (map[string]any, bool) {
	m := map[string]any{}
	if create {
		for _, r := range s.Required {
			if v, ok := c.body[r]; !ok || v == nil || v == "" {
				failField(c, r, r+" is required")
				return nil, false
			}
		}
	}
	for k, kind := range s.Fields {
		v, has := c.body[k]
		if !has {
			continue
		}
		good := v == nil
		switch kind {
		case "string":
			_, good2 := v.(string)
			good = good || good2
		case "int":
			_, good2 := asInt(v)
			good = good || good2
		case "bool":
			_, good2 := v.(bool)
			good = good || good2
		case "object":
			_, good2 := v.(map[string]any)
			good = good || good2
		case "array":
			_, good2 := v.([]any)
			good = good || good2
		default:
			good = true
		}
		if !good {
			failField(c, k, fmt.Sprintf("%s must be of type %s", k, kind))
			return nil, false
		}
		m[k] = v
	}
	return m, true
}

func (s Crud) list(c *Ctx) {
	if !needRole(c, s.ReadRole) {
		return
	}
	p, ok := s.scope(c)
	if !ok {
		return
	}
	search, _ := c.q("search")
	out := []map[string]any{}
	for _, m := range coll(s.Coll).Items {
		match := true
		for k, v := range p {
			if fmt.Sprint(m[k]) != fmt.Sprint(v) {
				match = false
			}
		}
		if match && search != "" {
			hit := false
			for _, f := range s.Search {
				if str, ok := m[f].(string); ok && strings.Contains(strings.ToLower(str), strings.ToLower(search)) {
					hit = true
				}
			}
			match = hit
		}
		if match {
			out = append(out, s.out(m))
		}
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func (s Crud) get(c *Ctx) {
	if !needRole(c, s.ReadRole) {
		return
	}
	p, ok := s.scope(c)
	if !ok {
		return
	}
	_, m := coll(s.Coll).byID(c.P[s.IDParam], p)
	if m == nil {
		fail(c, 404, "not_found", "resource "+c.P[s.IDParam]+" not found")
		return
	}
	send(c, 200, s.out(m))
}

func (s Crud) create(c *Ctx) {
	if !needRole(c, s.WriteRole) {
		return
	}
	p, ok := s.scope(c)
	if !ok {
		return
	}
	m, ok := s.checkFields(c, true)
	if !ok {
		return
	}
	if s.Validate != nil && !s.Validate(c, m, true) {
		return
	}
	cl := coll(s.Coll)
	if s.Unique != "" {
		if _, ex := cl.find(func(x map[string]any) bool {
			for k, v := range p {
				if fmt.Sprint(x[k]) != fmt.Sprint(v) {
					return false
				}
			}
			return strings.EqualFold(fmt.Sprint(x[s.Unique]), fmt.Sprint(m[s.Unique]))
		}); ex != nil {
			fail(c, 409, "already_exists", fmt.Sprintf("%s %v already exists", s.Unique, m[s.Unique]))
			return
		}
	}
	id := 1
	for _, x := range cl.Items {
		if n, ok := x["id"].(int); ok && n >= id {
			id = n + 1
		}
	}
	for k, v := range p {
		m[k] = v
	}
	t := now()
	m["id"], m["createdAt"], m["updatedAt"], m["createdBy"] = id, t, t, c.U.ID
	cl.Items = append(cl.Items, m)
	send(c, 201, s.out(m))
}

func (s Crud) update(c *Ctx) {
	if !needRole(c, s.WriteRole) {
		return
	}
	p, ok := s.scope(c)
	if !ok {
		return
	}
	_, m := coll(s.Coll).byID(c.P[s.IDParam], p)
	if m == nil {
		fail(c, 404, "not_found", "resource "+c.P[s.IDParam]+" not found")
		return
	}
	upd, ok := s.checkFields(c, false)
	if !ok {
		return
	}
	for _, r := range s.Required {
		if v, has := upd[r]; has && (v == nil || v == "") {
			failField(c, r, r+" must not be empty")
			return
		}
	}
	merged := map[string]any{}
	for k, v := range m {
		merged[k] = v
	}
	for k, v := range upd {
		merged[k] = v
	}
	if s.Validate != nil && !s.Validate(c, merged, false) {
		return
	}
	for k, v := range upd {
		m[k] = v
	}
	m["updatedAt"] = now()
	send(c, 200, s.out(m))
}

func (s Crud) del(c *Ctx) {
	if !needRole(c, s.WriteRole) {
		return
	}
	p, ok := s.scope(c)
	if !ok {
		return
	}
	cl := coll(s.Coll)
	i, m := cl.byID(c.P[s.IDParam], p)
	if m == nil {
		fail(c, 404, "not_found", "resource "+c.P[s.IDParam]+" not found")
		return
	}
	cl.Items = append(cl.Items[:i:i], cl.Items[i+1:]...)
	// cascade children
	for _, child := range [][2]string{{"embedUsers", "tenantId"}, {"embedGroups", "tenantId"}, {"embedMembers", "groupId"}} {
		if (s.Coll == "embedTenants" && child[1] == "tenantId") || (s.Coll == "embedGroups" && child[1] == "groupId") {
			cc := coll(child[0])
			var keep []map[string]any
			for _, x := range cc.Items {
				if fmt.Sprint(x[child[1]]) != fmt.Sprint(m["id"]) {
					keep = append(keep, x)
				}
			}
			cc.Items = keep
		}
	}
	send(c, 200, s.out(m))
}

var notifOperators = map[string]bool{"equals": true, "notEquals": true, "contains": true, "notContains": true, "gt": true, "gte": true, "lt": true, "lte": true, "set": true, "notSet": true, "inDateRange": true, "is_empty": true, "is_not_empty": true}
var timeGrains = map[string]bool{"hour": true, "day": true, "week": true, "month": true, "quarter": true, "year": true}

func validateNotification(c *Ctx, m map[string]any, create bool) bool {
	if df, ok := m["dashboardFilters"].([]any); ok {
		for i, x := range df {
			f, _ := x.(map[string]any)
			op, _ := f["operator"].(string)
			if f == nil || !notifOperators[op] {
				failField(c, fmt.Sprintf("dashboardFilters[%d].operator", i), "unknown filter operator")
				return false
			}
			if mem, _ := f["member"].(string); mem == "" {
				failField(c, fmt.Sprintf("dashboardFilters[%d].member", i), "member is required")
				return false
			}
		}
	}
	if tg, has := m["timeGrain"]; has && tg != nil {
		if s, _ := tg.(string); !timeGrains[s] {
			failField(c, "timeGrain", "timeGrain must be one of hour, day, week, month, quarter, year")
			return false
		}
	}
	if wb, has := m["workbookId"]; has && wb != nil {
		id, _ := asInt(wb)
		it := st.Items[id]
		depID, _ := strconv.Atoi(c.P["deploymentId"])
		if it == nil || it.Type != "WORKBOOK" || it.DeploymentID != depID {
			fail(c, 404, "workbook_not_found", fmt.Sprintf("workbook %d not found in this deployment", id))
			return false
		}
	}
	return true
}

func validateEmail(field string) func(c *Ctx, m map[string]any, create bool) bool {
	return func(c *Ctx, m map[string]any, create bool) bool {
		s, _ := m[field].(string)
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			failField(c, field, field+" must be a valid email address")
			return false
		}
		return true
	}
}

func validateMember(c *Ctx, m map[string]any, create bool) bool {
	uid, _ := asInt(m["userId"])
	tid := m["tenantId"]
	if tid == nil {
		tid, _ = strconv.Atoi(c.P["tenantId"])
	}
	_, u := coll("embedUsers").byID(strconv.Itoa(uid), map[string]any{"tenantId": tid})
	if u == nil {
		fail(c, 404, "embed_user_not_found", fmt.Sprintf("embed user %d not found in this tenant", uid))
		return false
	}
	return true
}
