package main

import (
	"sort"
	"strings"
)

type M = map[string]any

func sObj(props M, req ...string) M {
	m := M{"type": "object", "properties": props}
	if len(req) > 0 {
		m["required"] = req
	}
	return m
}
func sArr(items M) M      { return M{"type": "array", "items": items} }
func sRef(n string) M     { return M{"$ref": "#/components/schemas/" + n} }
func sStr() M             { return M{"type": "string"} }
func sInt() M             { return M{"type": "integer"} }
func sNum() M             { return M{"type": "number"} }
func sBool() M            { return M{"type": "boolean"} }
func sDT() M              { return M{"type": "string", "format": "date-time"} }
func sEnum(v ...string) M { return M{"type": "string", "enum": v} }
func sNull(t string) M    { return M{"type": []string{t, "null"}} }
func sAny() M             { return M{"type": "object", "additionalProperties": true} }
func sOneNull(x M) M      { return M{"oneOf": []any{x, M{"type": "null"}}} }
func sData(x M) M         { return sObj(M{"data": x}, "data") }
func sCursorList(item M) M {
	return sObj(M{"items": sArr(item), "pageInfo": sRef("PageInfo"), "data": M{"type": "array", "items": item, "deprecated": true}, "count": M{"type": "integer", "minimum": 0, "deprecated": true}}, "items", "pageInfo")
}

func components() M {
	pos := sObj(M{"x": sInt(), "y": sInt(), "w": sInt(), "h": sInt()}, "x", "y", "w", "h")
	bp := func(t M) M { return sObj(M{"lg": t, "md": t, "sm": t, "xs": t, "xxs": t}) }
	return M{
		"Error":      sObj(M{"error": sStr(), "code": sStr(), "field": sStr()}, "error"),
		"PageInfo":   sObj(M{"hasNextPage": sBool(), "hasPreviousPage": sBool(), "startCursor": sNull("string"), "endCursor": sNull("string")}, "hasNextPage", "hasPreviousPage"),
		"Pagination": sObj(M{"offset": sInt(), "limit": sInt(), "total": sInt()}, "offset", "limit", "total"),
		"Deployment": sObj(M{"id": sStr(), "name": sStr(), "created_at": sDT(), "region": sStr(), "cloudProvider": sStr(), "releaseChannel": sStr(), "version": sStr()}, "id", "name", "created_at"),
		"DeploymentDetail": sObj(M{"id": sStr(), "name": sStr(), "created_at": sDT(), "region": sStr(), "cloudProvider": sStr(), "releaseChannel": sStr(), "releaseChannelVersion": sStr(),
			"version": sStr(), "releaseChannelVersionHold": sBool(), "image": sStr(), "template": sStr(), "templateVariables": sAny(), "defaultLaunchpadViewGroup": M{}, "launchpadTabs": M{},
			"creationMethod": sEnum("upload", "platform", "github", "ssh"), "deployMode": sEnum("git", "cli"), "creationStep": sStr(), "workbookLimit": sNull("integer"), "gitRepository": sNull("string")}, "id", "name"),
		"DeploymentUpdate": sObj(M{"cloudProvider": sEnum("platform", "aws", "gcp", "azure"), "region": sStr(), "releaseChannel": sEnum("latest", "release"), "releaseChannelVersion": sStr(),
			"releaseChannelVersionHold": sBool(), "template": sStr(), "templateVariables": sAny(), "defaultLaunchpadViewGroup": M{}, "launchpadTabs": M{"type": []string{"array", "null"}},
			"creationMethod": sEnum("upload", "platform", "github", "ssh"), "deployMode": sEnum("git", "cli")}),
		"Credential":  sObj(M{"type": sStr(), "version": sInt(), "database": sStr(), "host": sStr(), "port": sInt(), "url": sStr()}),
		"Environment": sObj(M{"id": sStr(), "type": sEnum("production", "staging", "development"), "branch": sStr(), "user": sStr(), "api_credentials": sArr(sRef("Credential"))}, "id", "type"),
		"EnvVar":      sObj(M{"name": sStr(), "value": sStr()}, "name", "value"),
		"Branch": sObj(M{"id": sInt(), "name": sStr(), "parentBranch": sNull("string"), "lastHash": sStr(), "isStagingEnvironmentEnabled": sBool(), "kind": sEnum("production", "shared", "personal"),
			"devMode": sBool(), "createdAt": sDT(), "hasUncommittedChanges": sBool()}, "id", "name"),
		"VersionEntry":  sObj(M{"releaseChannelVersion": sStr(), "version": sStr(), "releaseChannel": sStr(), "isLatestInChannel": sBool(), "isCurrent": sBool()}, "releaseChannelVersion", "version", "releaseChannel", "isLatestInChannel", "isCurrent"),
		"MetaToken":     sObj(M{"token": sStr(), "created_at": sDT(), "expires_at": sDT(), "security_context": sAny(), "scopes": sArr(sStr())}, "token", "created_at", "expires_at"),
		"ResourceOwner": sObj(M{"id": sInt(), "email": sStr(), "firstName": sNull("string"), "picture": sNull("string")}, "id", "email"),
		"DashboardWidget": sObj(M{"id": sStr(), "type": sEnum("CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"), "position": pos,
			"responsiveLayouts": sOneNull(bp(sOneNull(pos))), "config": sNull("object"), "style": sNull("object")}, "id", "type", "position"),
		"DashboardLayout": sObj(M{"breakpoints": bp(sNull("integer")), "cols": bp(sNull("integer")), "containerPadding": sArr(sInt()), "margin": sArr(sInt()), "rowHeight": sInt()}),
		"DashboardAppSource": sObj(M{"entry": M{"type": []string{"string", "null"}, "maxLength": 255}, "files": M{"type": []string{"object", "null"}, "additionalProperties": sStr()}, "html": sNull("string"),
			"manifest": sObj(M{"dependencies": M{"type": []string{"object", "null"}, "additionalProperties": sStr()}, "version": sNull("integer")})}),
		"DashboardConfig": sObj(M{"kind": M{"type": []string{"string", "null"}, "enum": []any{"CLASSIC", "APP", nil}}, "title": sNull("string"), "description": sNull("string"),
			"widgets": sOneNull(sArr(sRef("DashboardWidget"))), "layout": sOneNull(sRef("DashboardLayout")), "settings": sNull("object"), "theme": sNull("object"), "app": sOneNull(sRef("DashboardAppSource"))}),
		"ReportSnapshot": sObj(M{"id": sInt(), "reportId": sInt(), "versionNumber": sInt(), "kind": M{"type": []string{"string", "null"}, "enum": []any{"vega", "table", "kpi", "html", "map", nil}},
			"name": sNull("string"), "title": sNull("string"), "description": sNull("string"), "sqlQuery": sNull("string"), "pythonCode": sNull("string"), "spec": M{}, "meta": sNull("object"),
			"isSourceReport": sNull("boolean"), "fillMissingRows": sOneNull(sObj(M{"member": sStr(), "excludedDimensions": sOneNull(sArr(sStr()))}, "member")),
			"periodComparisons": sOneNull(sArr(sObj(M{"measure": sStr(), "timeDimension": sStr(), "offset": sObj(M{"amount": sInt(), "unit": sStr()}, "amount", "unit"), "outputs": sOneNull(sArr(sStr()))}, "measure", "timeDimension", "offset"))),
			"preferences":       sOneNull(sObj(M{"columnFormats": M{"type": "object", "additionalProperties": sObj(M{"type": sEnum("currency", "percent", "number"), "decimalPlaces": sNull("integer")})}}))}, "id", "reportId", "versionNumber"),
		"Dashboard": sObj(M{"id": sInt(), "publicId": sStr(), "deploymentId": sInt(), "workbookId": sInt(), "status": sEnum("draft", "published", "archived"), "allowEmbed": sBool(),
			"config": sRef("DashboardConfig"), "versionNumber": sInt(), "versionId": sInt(), "reportSnapshots": sArr(sRef("ReportSnapshot")), "createdBy": sNull("integer"), "title": sNull("string"),
			"description": sNull("string"), "fromSharedWorkspace": sNull("boolean"), "restrictDataDownload": sNull("boolean"), "useBoardDashboards": sNull("boolean")},
			"id", "publicId", "deploymentId", "workbookId", "status", "allowEmbed", "config", "versionNumber", "versionId", "reportSnapshots"),
		"Workbook": sObj(M{"id": sInt(), "deploymentId": sInt(), "name": sStr(), "type": sEnum("FOLDER", "WORKBOOK", "REPORT"), "meta": sAny(), "calculatedFields": sAny(),
			"createdAt": M{"type": "string", "anyOf": []any{M{"format": "date"}, M{"format": "date-time"}}}, "updatedAt": M{"type": "string", "anyOf": []any{M{"format": "date"}, M{"format": "date-time"}}},
			"createdBy": sInt(), "userId": sNull("number"), "user": sOneNull(sRef("ResourceOwner")), "folderId": sNull("number"),
			"folderPath": sArr(sObj(M{"id": sInt(), "name": sStr()}, "id", "name")), "isFavorite": sNull("boolean"), "slug": sNull("string"),
			"dashboardDraft": sOneNull(sRef("DashboardConfig")), "dashboardPublished": sOneNull(sRef("DashboardConfig")), "publishedDashboard": sOneNull(sRef("Dashboard"))},
			"id", "deploymentId", "name", "type", "meta", "calculatedFields", "createdAt", "updatedAt"),
		"WorkbooksListResponse": sObj(M{"items": sArr(sRef("Workbook")), "data": M{"type": "array", "items": sRef("Workbook"), "deprecated": true}, "count": M{"type": []string{"integer", "null"}, "minimum": 0, "deprecated": true}, "pageInfo": sOneNull(sRef("PageInfo"))}, "items", "data"),
		"ItemRef":               sObj(M{"type": sEnum("WORKBOOK", "REPORT", "FOLDER"), "id": sInt()}, "type", "id"),
		"ItemFailure":           sObj(M{"type": sEnum("WORKBOOK", "REPORT", "FOLDER"), "id": sInt(), "error": sObj(M{"message": sStr(), "status": sInt()}, "message", "status")}, "type", "id", "error"),
		"Folder": sObj(M{"id": sInt(), "name": sStr(), "position": sInt(), "deploymentId": sInt(), "createdAt": sDT(), "updatedAt": sDT(), "type": sEnum("FOLDER"), "parentId": sNull("integer"),
			"createdBy": sInt(), "restricted": sBool(), "user": sOneNull(sRef("ResourceOwner")), "folderPath": sArr(sObj(M{"id": sInt(), "name": sStr()}, "id", "name"))}, "id", "name", "deploymentId", "type"),
		"Report": sObj(M{"id": sInt(), "deploymentId": sInt(), "name": sStr(), "type": sEnum("REPORT"), "publicId": sStr(), "workbookId": sNull("integer"), "kind": sNull("string"), "sqlQuery": sNull("string"),
			"meta": sAny(), "folderId": sNull("integer"), "createdAt": sDT(), "updatedAt": sDT(), "lastViewedAt": M{"type": []string{"string", "null"}, "format": "date-time"}, "placements": sArr(sRef("Placement"))}, "id", "name", "publicId"),
		"Placement":        sObj(M{"placementId": sStr(), "reportId": sInt(), "externalWorkbookId": sStr(), "sheetName": sStr(), "anchorCell": sStr(), "createdAt": sDT(), "lastRefreshedAt": M{"type": []string{"string", "null"}}}, "placementId"),
		"PlacementAddress": sObj(M{"placementId": sStr(), "externalWorkbookId": sStr(), "sheetName": sStr(), "anchorCell": sStr()}),
		"EmbedAccess":      sObj(M{"workbookId": sInt(), "allEmbedUsers": sEnum("read", "none"), "tenants": sArr(sObj(M{"tenantId": sInt(), "action": sEnum("read", "none")}))}),
		"User":             sObj(M{"id": sInt(), "email": sStr(), "firstName": sStr(), "lastName": sStr(), "role": sEnum("viewer", "ai_bi_user", "developer", "admin"), "status": sEnum("active", "deactivated"), "permissions": sArr(sStr()), "createdAt": sDT()}, "id", "email", "role"),
		"Generic":          M{"type": "object", "additionalProperties": true, "properties": M{"id": M{"type": []string{"integer", "string"}}, "createdAt": sDT(), "updatedAt": sDT()}},
		"DbtJob":           sObj(M{"id": sStr(), "branchName": sStr(), "ref": sNull("string"), "status": sEnum("queued", "running", "succeeded", "failed", "cancelled"), "trigger": sStr(), "createdAt": sDT(), "finishedAt": M{"type": []string{"string", "null"}}}, "id", "status"),
		"DataModelFile":    sObj(M{"path": sStr(), "content": sStr(), "size": sInt(), "hash": sStr()}, "path"),
	}
}

func buildSpec() M {
	paths := M{}
	for _, rt := range routes {
		pi, _ := paths[rt.Path].(M)
		if pi == nil {
			pi = M{}
			paths[rt.Path] = pi
		}
		op := M{"operationId": rt.OpID, "summary": rt.Summary, "tags": []string{rt.Tag}}
		var params []any
		for _, s := range rt.segs {
			if strings.HasPrefix(s, "{") {
				n := s[1 : len(s)-1]
				sch := sStr()
				if strings.HasSuffix(n, "Id") && n != "publicId" && n != "syncJobId" && n != "environmentId" {
					sch = M{"type": []string{"string", "integer"}}
				}
				params = append(params, M{"name": n, "in": "path", "required": true, "schema": sch})
			}
		}
		for _, p := range rt.Params {
			params = append(params, p)
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if rt.Req != nil {
			op["requestBody"] = M{"required": true, "content": M{"application/json": M{"schema": rt.Req}}}
		}
		resp := M{}
		ct := "application/json"
		if rt.OpID == "exportAuditLogs" {
			ct = "text/csv"
		}
		var rs M = rt.Resp
		if rs == nil {
			rs = sRef("Generic")
		}
		resp[itoa(rt.Status)] = M{"description": "Success", "content": M{ct: M{"schema": rs}}}
		if rt.OpID == "getDbtSyncResult" {
			resp["202"] = M{"description": "Job not finished yet", "content": M{"application/json": M{"schema": sData(sObj(M{"id": sStr(), "status": sStr(), "result": M{"type": "null"}}))}}}
		}
		if rt.OpID == "upsertReportByPublicId" || rt.OpID == "connectReportToWorkbook" {
			resp["200"] = M{"description": "Updated / already present", "content": M{"application/json": M{"schema": rs}}}
		}
		errRef := M{"content": M{"application/json": M{"schema": sRef("Error")}}}
		for _, code := range []string{"400", "401", "403", "404"} {
			e := M{"description": map[string]string{"400": "Invalid request", "401": "Missing or invalid credential", "403": "Not allowed", "404": "Not found"}[code]}
			for k, v := range errRef {
				e[k] = v
			}
			resp[code] = e
		}
		if rt.OpID == "upsertWorkbookBySlug" {
			resp["409"] = M{"description": "Create/update decision changed concurrently (code upsert_branch_changed)", "content": M{"application/json": M{"schema": sRef("Error")}}}
		}
		op["responses"] = resp
		pi[strings.ToLower(rt.Method)] = op
	}
	return M{
		"openapi":  "3.1.0",
		"info":     M{"title": "Analytics Platform API", "version": "1.0.0", "description": "Management API of the analytics platform (blind Go implementation)."},
		"servers":  []any{M{"url": "/"}},
		"security": []any{M{"bearerAuth": []any{}}},
		"tags":     []any{M{"name": "platform", "description": "/api/v1"}, M{"name": "build", "description": "/build/api/v1"}},
		"paths":    paths,
		"components": M{
			"schemas":         components(),
			"securitySchemes": M{"bearerAuth": M{"type": "http", "scheme": "bearer", "description": "Account API key"}},
		},
	}
}

func itoa(i int) string {
	if i == 0 {
		return "200"
	}
	s := ""
	for i > 0 {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}

func hSpec(c *Ctx) { send(c, 200, buildSpec()) }

func routeCount() int {
	seen := map[string]bool{}
	for _, r := range routes {
		seen[r.Method+" "+r.Path] = true
	}
	keys := []string{}
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return len(keys)
}
