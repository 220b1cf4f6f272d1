package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ---------- deployment admin ----------

func hSettings(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	vars := map[string]string{}
	for _, e := range d.EnvVars {
		if m := masked(e); m.Value != "[ENCRYPTED]" {
			vars[e.Name] = e.Value
		}
	}
	det := depDetail(d)
	det["environmentVariables"] = vars
	det["secretsExcluded"] = true
	send(c, 200, map[string]any{"data": det})
}

func hDeleteDeployment(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleAdmin) {
		return
	}
	d.Deleted = true
	addAudit(c, "Deployment deleted", d.ID, nil)
	send(c, 200, map[string]any{"data": map[string]any{"deployment": depDetail(d)}})
}

func branchParam(c *Ctx, d *Deployment, fromBody bool) *Branch {
	name := "main"
	if fromBody {
		if s, has, ok := c.str("branchName", false); !ok {
			return nil
		} else if has {
			name = s
		}
	} else if s, ok := c.q("branchName"); ok && s != "" {
		name = s
	}
	b := findBranch(d, name, 0)
	if b == nil {
		fail(c, 404, "branch_not_found", "branch "+name+" not found")
	}
	return b
}

func hBuildStatus(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := branchParam(c, d, false)
	if b == nil {
		return
	}
	state := "deployed"
	if b.Uncommitted {
		state = "pending"
	}
	if d.CreationStep < len(creationSteps)-1 {
		state = "not_deployed"
	}
	send(c, 200, map[string]any{"data": map[string]any{"deploymentId": strconv.Itoa(d.ID), "branchName": b.Name, "state": state, "lastHash": b.LastHash, "version": d.Version,
		"updatedAt": b.CreatedAt, "steps": []map[string]any{{"name": "build", "state": "succeeded"}, {"name": "deploy", "state": map[bool]string{true: "succeeded", false: "skipped"}[state == "deployed"]}}}})
}

var containers = map[string]bool{"INIT": true, "MAIN": true, "vector": true, "api-proxy": true, "cubejs": true}

func hLogs(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	src, _ := c.q("source")
	if src == "" {
		src = "production"
	}
	if src != "production" && src != "dev" {
		failField(c, "source", "source must be production or dev")
		return
	}
	cont, _ := c.q("container")
	if cont != "" && !containers[cont] {
		failField(c, "container", "container must be one of INIT, MAIN, vector, api-proxy, cubejs")
		return
	}
	var out []map[string]any
	base := now().Add(-time.Hour).Truncate(time.Second)
	names := []string{"INIT", "MAIN", "vector", "api-proxy", "cubejs"}
	for i := 0; i < 40; i++ {
		cn := names[i%len(names)]
		if cont != "" && cn != cont {
			continue
		}
		out = append(out, map[string]any{"timestamp": base.Add(time.Duration(i) * 37 * time.Second), "source": src, "container": cn, "level": []string{"info", "warn", "info", "debug"}[i%4],
			"message": fmt.Sprintf("[%s] deployment %d: event %d", cn, d.ID, i)})
	}
	if out == nil {
		out = []map[string]any{}
	}
	listCursor(c, out, 50, nil)
}

func hPods(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	out := []map[string]any{}
	for i, role := range []string{"api", "api", "refresh-worker", "cubestore-router", "cubestore-worker"} {
		out = append(out, map[string]any{"name": fmt.Sprintf("%s-%d-%s", role, d.ID, randHexStable(d.ID*10+i)), "role": role, "status": "Running", "restarts": i % 2,
			"startedAt": d.CreatedAt.AddDate(0, 0, 1), "containers": []string{"MAIN", "vector", "api-proxy"}})
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func randHexStable(n int) string {
	h := sha256.Sum256([]byte(strconv.Itoa(n)))
	return hex.EncodeToString(h[:3])
}

func stepOut(d *Deployment) map[string]any {
	return map[string]any{"data": map[string]any{"deploymentId": strconv.Itoa(d.ID), "creationStep": creationSteps[d.CreationStep], "stepIndex": d.CreationStep, "steps": creationSteps}}
}

func hAdvance(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	if d.CreationStep >= len(creationSteps)-1 {
		fail(c, 400, "setup_complete", "the setup wizard is already complete")
		return
	}
	d.CreationStep++
	send(c, 200, stepOut(d))
}

func hReset(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	d.CreationStep = 0
	send(c, 200, stepOut(d))
}

var regions = []map[string]any{
	{"id": "us-east-1", "name": "US East (N. Virginia)", "cloudProvider": "aws"},
	{"id": "eu-west-1", "name": "EU (Ireland)", "cloudProvider": "aws"},
	{"id": "ap-southeast-1", "name": "Asia Pacific (Singapore)", "cloudProvider": "aws"},
	{"id": "us-central1", "name": "Iowa", "cloudProvider": "gcp"},
	{"id": "europe-west3", "name": "Frankfurt", "cloudProvider": "gcp"},
	{"id": "platform-us", "name": "Hosted US", "cloudProvider": "platform"},
	{"id": "platform-eu", "name": "Hosted EU", "cloudProvider": "platform"},
}

func hRegions(c *Ctx) {
	out := regions
	if cp, ok := c.q("cloudProvider"); ok && cp != "" {
		out = []map[string]any{}
		for _, r := range regions {
			if r["cloudProvider"] == cp {
				out = append(out, r)
			}
		}
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func hAppConfig(c *Ctx) {
	m := deepCopy(st.AppConfig).(map[string]any)
	m["creatorMode"] = c.U.CreatorMode
	send(c, 200, m)
}

func hCreateDeployment(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	name, _, ok := c.str("name", true)
	if !ok {
		return
	}
	if strings.TrimSpace(name) == "" || len(name) > 120 {
		failField(c, "name", "name must be 1..120 characters")
		return
	}
	cp := "platform"
	if s, has, ok := c.str("cloudProvider", false); !ok {
		return
	} else if has {
		n, good := normCloud(s)
		if !good || n == "azure" {
			failField(c, "cloudProvider", "cloudProvider must be one of platform, aws, gcp")
			return
		}
		cp = n
	}
	cm := "platform"
	for _, k := range []string{"creationMethod", "creation_method"} {
		if s, has, ok := c.str(k, false); !ok {
			return
		} else if has {
			n, good := normCreation(s)
			if !good {
				failField(c, k, "creationMethod must be one of upload, platform, github, ssh")
				return
			}
			cm = n
		}
	}
	dm := "git"
	for _, k := range []string{"deployMode", "deploy_mode"} {
		if s, has, ok := c.str(k, false); !ok {
			return
		} else if has {
			if s != "git" && s != "cli" {
				failField(c, k, "deployMode must be git or cli")
				return
			}
			dm = s
		}
	}
	region := "platform-us"
	if s, has, ok := c.str("region", false); !ok {
		return
	} else if has {
		region = s
	}
	id := 9001
	for k := range st.Deps {
		if k >= id {
			id = k + 1
		}
	}
	d := &Deployment{ID: id, Name: name, CreatedAt: now(), Region: region, CloudProvider: cp, ReleaseChannel: "latest", Version: channelVersions["latest"][0],
		Template: "default", TemplateVariables: map[string]any{}, CreationMethod: cm, DeployMode: dm, LaunchpadTabs: []any{}}
	st.Deps[id] = d
	b := &Branch{ID: 900 + id, DeploymentID: id, Name: "main", LastHash: randHex(20), Kind: "production", OwnerID: c.U.ID, CreatedAt: now(), Files: map[string]string{}}
	st.Branches = append(st.Branches, b)
	addAudit(c, "Deployment created", id, nil)
	send(c, 201, map[string]any{"data": map[string]any{"deployment": depDetail(d)}})
}

// ---------- data model ----------

func fileHash(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

func sortedPaths(b *Branch) []string {
	var p []string
	for k := range b.Files {
		p = append(p, k)
	}
	sort.Strings(p)
	return p
}

func hListFiles(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := branchParam(c, d, false)
	if b == nil {
		return
	}
	out := []map[string]any{}
	for _, p := range sortedPaths(b) {
		out = append(out, map[string]any{"path": p, "content": b.Files[p], "size": len(b.Files[p]), "hash": fileHash(b.Files[p])})
	}
	listCursor(c, out, 100, map[string]any{"branchName": b.Name})
}

func devBranch(c *Ctx, d *Deployment) *Branch {
	if !needRole(c, RoleDeveloper) {
		return nil
	}
	b := branchParam(c, d, true)
	if b == nil {
		return nil
	}
	if !b.DevMode {
		fail(c, 422, "branch_not_in_dev_mode", "branch "+b.Name+" is not in dev mode; data-model writes are only allowed on dev-mode branches")
		return nil
	}
	return b
}

func validPath(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !strings.Contains(p, "..") && !strings.Contains(p, "\\") && len(p) <= 512
}

func hWriteFiles(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := devBranch(c, d)
	if b == nil {
		return
	}
	arr, ok := c.body["files"].([]any)
	if !ok || len(arr) == 0 {
		failField(c, "files", "files must be a non-empty array of {path, content}")
		return
	}
	type f struct{ p, c string }
	var fs []f
	for i, x := range arr {
		m, _ := x.(map[string]any)
		p, ok1 := m["path"].(string)
		ct, ok2 := m["content"].(string)
		if !ok1 || !ok2 || !validPath(p) {
			failField(c, fmt.Sprintf("files[%d]", i), "each file needs a relative path and string content")
			return
		}
		fs = append(fs, f{p, ct})
	}
	written := []map[string]any{}
	for _, x := range fs {
		b.Files[x.p] = x.c
		written = append(written, map[string]any{"path": x.p, "size": len(x.c), "hash": fileHash(x.c)})
	}
	b.Uncommitted = true
	send(c, 200, map[string]any{"data": map[string]any{"branchName": b.Name, "written": written}})
}

func hDeleteFiles(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	if _, ok := c.q("branchName"); ok && c.body == nil {
		c.body = map[string]any{"branchName": c.R.URL.Query().Get("branchName")}
	}
	b := devBranch(c, d)
	if b == nil {
		return
	}
	paths := c.R.URL.Query()["path"]
	if arr, ok := c.body["paths"].([]any); ok {
		for _, x := range arr {
			if s, ok := x.(string); ok {
				paths = append(paths, s)
			}
		}
	}
	if len(paths) == 0 {
		failField(c, "path", "give the files to delete as repeated path query parameters or a paths array")
		return
	}
	for _, p := range paths {
		if _, ok := b.Files[p]; !ok {
			fail(c, 404, "file_not_found", "file "+p+" not found on branch "+b.Name)
			return
		}
	}
	for _, p := range paths {
		delete(b.Files, p)
	}
	b.Uncommitted = true
	send(c, 200, map[string]any{"data": map[string]any{"branchName": b.Name, "deleted": paths}})
}

func hRenameFiles(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := devBranch(c, d)
	if b == nil {
		return
	}
	arr, ok := c.body["files"].([]any)
	if !ok || len(arr) == 0 {
		failField(c, "files", "files must be a non-empty array of {path, newPath}")
		return
	}
	type rn struct{ from, to string }
	var rs []rn
	for i, x := range arr {
		m, _ := x.(map[string]any)
		from, _ := firstStr(m, "path", "oldPath", "from")
		to, _ := firstStr(m, "newPath", "to")
		if !validPath(from) || !validPath(to) {
			failField(c, fmt.Sprintf("files[%d]", i), "each entry needs path and newPath")
			return
		}
		if _, ok := b.Files[from]; !ok {
			fail(c, 404, "file_not_found", "file "+from+" not found")
			return
		}
		if _, ok := b.Files[to]; ok {
			fail(c, 409, "file_exists", "file "+to+" already exists")
			return
		}
		rs = append(rs, rn{from, to})
	}
	out := []map[string]any{}
	for _, r := range rs {
		b.Files[r.to] = b.Files[r.from]
		delete(b.Files, r.from)
		out = append(out, map[string]any{"path": r.from, "newPath": r.to})
	}
	b.Uncommitted = true
	send(c, 200, map[string]any{"data": map[string]any{"branchName": b.Name, "renamed": out}})
}

func firstStr(m map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

func hValidate(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := branchParam(c, d, false)
	if b == nil {
		return
	}
	errs := []map[string]any{}
	for _, p := range sortedPaths(b) {
		ct := b.Files[p]
		if strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") {
			for i, line := range strings.Split(ct, "\n") {
				if strings.Contains(line, "\t") {
					errs = append(errs, map[string]any{"file": p, "line": i + 1, "message": "tabs are not allowed in YAML indentation"})
				}
			}
			if strings.TrimSpace(ct) != "" && !strings.Contains(ct, "cubes:") && !strings.Contains(ct, "views:") {
				errs = append(errs, map[string]any{"file": p, "line": 1, "message": "expected a top-level cubes: or views: key"})
			}
		}
		if strings.Contains(ct, "<<<<<<<") {
			errs = append(errs, map[string]any{"file": p, "line": 1, "message": "unresolved merge conflict marker"})
		}
	}
	send(c, 200, map[string]any{"data": map[string]any{"branchName": b.Name, "valid": len(errs) == 0, "errors": errs, "compiledAt": now()}})
}

func hFileHashes(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	b := branchParam(c, d, false)
	if b == nil {
		return
	}
	out := []map[string]any{}
	for _, p := range sortedPaths(b) {
		out = append(out, map[string]any{"path": p, "hash": fileHash(b.Files[p])})
	}
	listCursor(c, out, 100, map[string]any{"branchName": b.Name})
}

func hUploadStart(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	b := branchParam(c, d, true)
	if b == nil {
		return
	}
	id := "upl_" + randHex(8)
	st.Uploads[id] = map[string]any{"uploadId": id, "deploymentId": d.ID, "branchName": b.Name, "files": map[string]string{}, "status": "open", "createdAt": now()}
	send(c, 201, map[string]any{"data": map[string]any{"uploadId": id, "branchName": b.Name, "status": "open"}})
}

func getUpload(c *Ctx, d *Deployment) map[string]any {
	id, _, ok := c.str("uploadId", true)
	if !ok {
		return nil
	}
	u := st.Uploads[id]
	if u == nil || u["deploymentId"] != d.ID {
		fail(c, 404, "upload_not_found", "upload "+id+" not found")
		return nil
	}
	if u["status"] != "open" {
		fail(c, 409, "upload_closed", "upload "+id+" is already finished")
		return nil
	}
	return u
}

func hUploadFile(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	u := getUpload(c, d)
	if u == nil {
		return
	}
	p, _, ok := c.str("path", true)
	if !ok {
		return
	}
	ct, _, ok := c.str("content", true)
	if !ok {
		return
	}
	if !validPath(p) {
		failField(c, "path", "path must be a relative file path")
		return
	}
	files := u["files"].(map[string]string)
	files[p] += ct
	send(c, 200, map[string]any{"data": map[string]any{"uploadId": u["uploadId"], "path": p, "receivedBytes": len(files[p]), "files": len(files)}})
}

func hUploadFinish(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	u := getUpload(c, d)
	if u == nil {
		return
	}
	b := findBranch(d, u["branchName"].(string), 0)
	files := u["files"].(map[string]string)
	if b != nil {
		b.Files = map[string]string{}
		for k, v := range files {
			b.Files[k] = v
		}
		b.LastHash = randHex(20)
	}
	u["status"] = "finished"
	send(c, 200, map[string]any{"data": map[string]any{"uploadId": u["uploadId"], "status": "finished", "files": len(files), "lastHash": b.LastHash}})
}

// ---------- dev mode & branches ----------

func hDevModeStart(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	name := "dev-" + strings.Split(c.U.Email, "@")[0]
	if s, has, ok := c.str("branchName", false); !ok {
		return
	} else if has {
		name = s
	}
	b := findBranch(d, name, 0)
	if b == nil {
		main := findBranch(d, "main", 0)
		b = &Branch{ID: nextID(), DeploymentID: d.ID, Name: name, ParentBranch: ptrS("main"), LastHash: main.LastHash, Kind: "personal", OwnerID: c.U.ID, CreatedAt: now(), Files: copyFiles(main.Files)}
		st.Branches = append(st.Branches, b)
	}
	if b.Kind == "production" {
		fail(c, 409, "production_branch", "dev mode cannot be started on the production branch")
		return
	}
	b.DevMode = true
	send(c, 200, map[string]any{"data": b})
}

func hDevModeStop(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	var stopped []*Branch
	name, _ := c.q("branchName")
	if s, ok := c.body["branchName"].(string); ok {
		name = s
	}
	for _, b := range st.Branches {
		if b.DeploymentID == d.ID && b.DevMode && (name == b.Name || name == "" && b.OwnerID == c.U.ID) {
			b.DevMode = false
			stopped = append(stopped, b)
		}
	}
	if stopped == nil {
		stopped = []*Branch{}
	}
	send(c, 200, map[string]any{"data": map[string]any{"devMode": false, "stoppedBranches": stopped}})
}

func copyFiles(m map[string]string) map[string]string {
	o := map[string]string{}
	for k, v := range m {
		o[k] = v
	}
	return o
}

func hListBranches(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	out := []*Branch{}
	for _, b := range st.Branches {
		if b.DeploymentID == d.ID {
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	listCursor(c, out, defaultCursorPage, nil)
}

var branchNameOK = func(s string) bool {
	if s == "" || len(s) > 100 || strings.HasPrefix(s, "-") || strings.Contains(s, "..") || strings.HasSuffix(s, "/") {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '/' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func hCreateBranch(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	name, _, ok := c.str("name", true)
	if !ok {
		return
	}
	if !branchNameOK(name) {
		failField(c, "name", "name is not a valid git branch name")
		return
	}
	from := "main"
	if s, has, ok := c.str("from", false); !ok {
		return
	} else if has {
		from = s
	}
	act, _, ok := c.boolean("activate", false)
	if !ok {
		return
	}
	if findBranch(d, name, 0) != nil {
		fail(c, 409, "branch_exists", "branch "+name+" already exists")
		return
	}
	pb := findBranch(d, from, 0)
	if pb == nil {
		fail(c, 404, "branch_not_found", "source branch "+from+" not found")
		return
	}
	b := &Branch{ID: nextID(), DeploymentID: d.ID, Name: name, ParentBranch: ptrS(from), LastHash: pb.LastHash, Kind: "shared", OwnerID: c.U.ID, CreatedAt: now(), Files: copyFiles(pb.Files), DevMode: act}
	st.Branches = append(st.Branches, b)
	send(c, 201, map[string]any{"data": b})
}

func hDeleteBranch(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	name, _ := c.q("branchName")
	if name == "" {
		failField(c, "branchName", "branchName query parameter is required")
		return
	}
	b := findBranch(d, name, 0)
	if b == nil {
		fail(c, 404, "branch_not_found", "branch "+name+" not found")
		return
	}
	if b.Kind == "production" {
		fail(c, 409, "production_branch", "the production branch cannot be deleted")
		return
	}
	remote, _ := c.q("removeOnUpstream")
	reparented := []string{}
	for _, x := range st.Branches {
		if x.DeploymentID == d.ID && x.ParentBranch != nil && *x.ParentBranch == b.Name {
			x.ParentBranch = b.ParentBranch
			reparented = append(reparented, x.Name)
		}
	}
	for i, x := range st.Branches {
		if x == b {
			st.Branches = append(st.Branches[:i:i], st.Branches[i+1:]...)
			break
		}
	}
	send(c, 200, map[string]any{"data": map[string]any{"branch": b, "reparentedBranches": reparented, "removedOnUpstream": remote == "true" || remote == "1"}})
}

func hGitOp(op string) func(c *Ctx) {
	return func(c *Ctx) {
		d := dep(c)
		if d == nil || !needRole(c, RoleDeveloper) {
			return
		}
		name, _, ok := c.str("branchName", true)
		if !ok {
			return
		}
		b := findBranch(d, name, 0)
		if b == nil {
			fail(c, 404, "branch_not_found", "branch "+name+" not found")
			return
		}
		res := map[string]any{"operation": op, "branchName": b.Name}
		switch op {
		case "commit":
			msg, _, ok := c.str("message", true)
			if !ok {
				return
			}
			if strings.TrimSpace(msg) == "" {
				failField(c, "message", "message must not be empty")
				return
			}
			b.LastHash, b.Uncommitted = randHex(20), false
			res["message"] = msg
		case "pull":
			if b.ParentBranch != nil {
				if p := findBranch(d, *b.ParentBranch, 0); p != nil {
					for k, v := range p.Files {
						if _, ok := b.Files[k]; !ok {
							b.Files[k] = v
						}
					}
				}
			}
		case "merge", "merge-to-default":
			target := "main"
			if op == "merge" && b.ParentBranch != nil {
				target = *b.ParentBranch
			}
			if op == "merge" {
				if s, has, ok := c.str("targetBranchName", false); !ok {
					return
				} else if has {
					target = s
				}
			}
			t := findBranch(d, target, 0)
			if t == nil {
				fail(c, 404, "branch_not_found", "target branch "+target+" not found")
				return
			}
			if t == b {
				failField(c, "targetBranchName", "a branch cannot be merged into itself")
				return
			}
			if b.Uncommitted {
				fail(c, 409, "uncommitted_changes", "commit the branch before merging")
				return
			}
			for k, v := range b.Files {
				t.Files[k] = v
			}
			t.LastHash = randHex(20)
			res["targetBranchName"] = t.Name
		}
		res["lastHash"] = b.LastHash
		res["at"] = now()
		send(c, 200, map[string]any{"data": res})
	}
}

func hGithubConnect(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleAdmin) {
		return
	}
	repo, _, ok := c.str("repository", true)
	if !ok {
		return
	}
	if p := strings.Split(repo, "/"); len(p) != 2 || p[0] == "" || p[1] == "" {
		failField(c, "repository", "repository must be owner/name")
		return
	}
	br := "main"
	if s, has, ok := c.str("branch", false); !ok {
		return
	} else if has {
		br = s
	}
	d.GitRepo = repo
	d.CreationMethod = "github"
	send(c, 200, map[string]any{"data": map[string]any{"deploymentId": strconv.Itoa(d.ID), "connected": true, "repository": repo, "branch": br}})
}

// ---------- dbt sync ----------

func jobState(j map[string]any) {
	if j["status"] == "cancelled" {
		return
	}
	age := time.Since(j["createdAt"].(time.Time))
	switch {
	case age > 1500*time.Millisecond:
		if j["status"] != "succeeded" {
			j["status"] = "succeeded"
			j["finishedAt"] = j["createdAt"].(time.Time).Add(1500 * time.Millisecond)
		}
	case age > 500*time.Millisecond:
		j["status"] = "running"
	}
}

func jobOut(j map[string]any) map[string]any {
	jobState(j)
	o := map[string]any{}
	for k, v := range j {
		if k != "deploymentId" {
			o[k] = v
		}
	}
	return o
}

func getJob(c *Ctx) map[string]any {
	d := dep(c)
	if d == nil {
		return nil
	}
	_, j := coll("dbtJobs").byID(c.P["syncJobId"], map[string]any{"deploymentId": d.ID})
	if j == nil {
		fail(c, 404, "sync_job_not_found", "sync job "+c.P["syncJobId"]+" not found")
	}
	return j
}

func hDbtStart(c *Ctx) {
	d := dep(c)
	if d == nil || !needRole(c, RoleDeveloper) {
		return
	}
	bn := "main"
	if s, has, ok := c.str("branchName", false); !ok {
		return
	} else if has {
		bn = s
	}
	if findBranch(d, bn, 0) == nil {
		fail(c, 404, "branch_not_found", "branch "+bn+" not found")
		return
	}
	ref, _, ok := c.str("ref", false)
	if !ok {
		return
	}
	cl := coll("dbtJobs")
	j := map[string]any{"id": "dbt_" + randHex(6), "deploymentId": d.ID, "branchName": bn, "ref": nilIfEmpty(ref), "status": "queued", "trigger": "api", "createdAt": now(), "finishedAt": nil, "createdBy": c.U.ID}
	cl.Items = append(cl.Items, j)
	send(c, 202, map[string]any{"data": jobOut(j)})
}

func hDbtList(c *Ctx) {
	d := dep(c)
	if d == nil {
		return
	}
	stF, _ := c.q("status")
	trF, _ := c.q("trigger")
	out := []map[string]any{}
	items := coll("dbtJobs").Items
	for i := len(items) - 1; i >= 0; i-- {
		j := items[i]
		if j["deploymentId"] != d.ID {
			continue
		}
		o := jobOut(j)
		if stF != "" && o["status"] != stF || trF != "" && o["trigger"] != trF {
			continue
		}
		out = append(out, o)
	}
	listCursor(c, out, defaultCursorPage, nil)
}

func hDbtGet(c *Ctx) {
	if j := getJob(c); j != nil {
		send(c, 200, map[string]any{"data": jobOut(j)})
	}
}

func hDbtCancel(c *Ctx) {
	j := getJob(c)
	if j == nil || !needRole(c, RoleDeveloper) {
		return
	}
	jobState(j)
	if j["status"] == "succeeded" || j["status"] == "failed" {
		fail(c, 422, "job_finished", "the sync job has already finished")
		return
	}
	j["status"], j["finishedAt"] = "cancelled", now()
	send(c, 200, map[string]any{"data": jobOut(j)})
}

func hDbtResult(c *Ctx) {
	j := getJob(c)
	if j == nil {
		return
	}
	o := jobOut(j)
	if o["status"] != "succeeded" {
		send(c, 202, map[string]any{"data": map[string]any{"id": o["id"], "status": o["status"], "result": nil}})
		return
	}
	send(c, 200, map[string]any{"data": map[string]any{"id": o["id"], "status": o["status"], "result": map[string]any{"modelsSynced": 12, "cubesGenerated": 9, "filesChanged": []string{"model/cubes/orders.yml"}, "warnings": []string{}}}})
}

func hDbtLogs(c *Ctx) {
	j := getJob(c)
	if j == nil {
		return
	}
	o := jobOut(j)
	t := j["createdAt"].(time.Time)
	out := []map[string]any{{"timestamp": t, "level": "info", "message": "sync queued"}}
	if o["status"] != "queued" {
		out = append(out, map[string]any{"timestamp": t.Add(500 * time.Millisecond), "level": "info", "message": "dbt manifest downloaded"})
	}
	if o["status"] == "succeeded" {
		out = append(out, map[string]any{"timestamp": t.Add(1500 * time.Millisecond), "level": "info", "message": "12 models synced"})
	}
	if o["status"] == "cancelled" {
		out = append(out, map[string]any{"timestamp": o["finishedAt"], "level": "warn", "message": "sync cancelled"})
	}
	listCursor(c, out, 100, nil)
}
