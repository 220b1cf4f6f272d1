package main

func qp(name string, schema M) map[string]any {
	return map[string]any{"name": name, "in": "query", "required": false, "schema": schema}
}

var pFirst = qp("first", M{"type": "integer", "minimum": 1, "maximum": maxPage})
var pAfter = qp("after", sStr())
var pOffset = qp("offset", M{"type": "integer", "minimum": 0, "default": 0})
var pLimit = qp("limit", M{"type": "integer", "minimum": 1, "maximum": maxPage, "default": 20})
var pBranch = qp("branchName", M{"type": "string", "default": "main"})
var pSearch = qp("search", sStr())

func crudRoutes(base, item, name string, s Crud, updMethod string, reqProps M, required ...string) {
	req := sObj(reqProps, required...)
	upd := sObj(reqProps)
	s.IDParam = item
	route("GET", base, "list"+name+"s", "List "+name+"s", 200, nil, sCursorList(sRef("Generic")), s.list, pFirst, pAfter, pSearch)
	route("POST", base, "create"+name, "Create a "+name, 201, req, sRef("Generic"), s.create)
	one := base + "/{" + item + "}"
	if base[len(base)-1] == '/' {
		one = base + "{" + item + "}"
	}
	route("GET", one, "get"+name, "Get a "+name, 200, nil, sRef("Generic"), s.get)
	route(updMethod, one, "update"+name, "Update a "+name+" (partial)", 200, upd, sRef("Generic"), s.update)
	route("DELETE", one, "delete"+name, "Delete a "+name+" (answers the deleted record)", 200, nil, sRef("Generic"), s.del)
}

func registerRoutes() {
	depP := "/api/v1/deployments/{deploymentId}"
	bld := "/build/api/v1/deployments/{deploymentId}"
	// E1-E13
	route("GET", "/api/v1/deployments", "listDeployments", "List deployments accessible to the caller", 200, nil,
		sObj(M{"data": sObj(M{"deployments": sArr(sRef("Deployment"))}, "deployments"), "pagination": sRef("Pagination")}, "data", "pagination"), hListDeployments, pOffset, pLimit)
	route("GET", depP+"/environments", "listEnvironments", "List environments of a deployment", 200, nil,
		sObj(M{"items": sArr(sRef("Environment")), "pageInfo": sRef("PageInfo"), "data": M{"type": "array", "items": sRef("Environment"), "deprecated": true}, "pagination": M{"oneOf": []any{sRef("Pagination"), M{"type": "null"}}, "deprecated": true}}, "items", "pageInfo"),
		hListEnvironments, qp("type", sEnum("production", "staging", "development")), pOffset, qp("limit", M{"type": "integer", "minimum": 0, "maximum": maxPage, "default": 20}), pFirst, pAfter)
	route("POST", depP+"/environments/{environmentId}/tokens-for-meta-sync", "createMetaSyncToken", "Issue a metadata-only token", 200,
		sObj(M{"security_context": sAny(), "expires_in": M{"type": "number", "minimum": 1, "maximum": 1209600, "default": 86400}}, "security_context"), sData(sRef("MetaToken")), hMetaToken)
	route("PUT", bld+"/branches/staging-environment", "setBranchStagingEnvironment", "Enable or disable a branch's always-on staging environment", 200,
		sObj(M{"enabled": sBool(), "branchName": sStr(), "branchId": sInt()}, "enabled"), sData(sRef("Branch")), hStaging)
	route("GET", depP+"/versions", "listDeploymentVersions", "List versions the deployment can switch to", 200, nil, sData(sArr(sRef("VersionEntry"))), hVersions)
	route("PUT", depP, "updateDeployment", "Update deployment settings (partial merge)", 200, sRef("DeploymentUpdate"), sData(sObj(M{"deployment": sRef("DeploymentDetail")}, "deployment")), hUpdateDeployment)
	route("GET", "/api/v1/audit-logs/export", "exportAuditLogs", "Export audit log events as CSV", 200, nil, M{"type": "string"}, hAuditExport,
		qp("start", M{"type": "string", "format": "date"}), qp("end", M{"type": "string", "format": "date"}), pSearch, qp("eventName", sStr()), qp("userEmail", sStr()))
	route("GET", depP+"/workbooks", "listWorkbooks", "List workbooks", 200, nil, sRef("WorkbooksListResponse"), hListWorkbooks,
		qp("folderId", M{"type": []string{"integer", "null"}, "minimum": 0}), pAfter, pFirst)
	route("GET", depP+"/workbooks/{workbookId}", "getWorkbook", "Get a workbook", 200, nil, sRef("Workbook"), hGetWorkbook)
	route("POST", depP+"/workbooks/{workbookId}/duplicate", "duplicateWorkbook", "Clone a workbook", 200, sObj(M{"shared": sBool()}), sRef("Workbook"), hClone)
	route("PUT", depP+"/workbooks/by-slug/{slug}", "upsertWorkbookBySlug", "Create or update a workbook by slug", 200,
		sObj(M{"folderId": sNull("integer"), "meta": sAny(), "name": sStr()}), sRef("Workbook"), hUpsertBySlug)
	route("POST", depP+"/workspace/bulk-move", "bulkMoveWorkspaceItems", "Move workspace items in bulk", 200,
		sObj(M{"items": M{"type": "array", "items": sRef("ItemRef"), "minItems": 1, "maxItems": 100}, "folderId": sNull("integer")}, "items"),
		sObj(M{"moved": sArr(sRef("Workbook")), "failed": sArr(sRef("ItemFailure"))}, "moved", "failed"), hBulkMove)
	route("GET", depP+"/env-vars", "listEnvVars", "List environment variables (secret-named values masked)", 200, nil,
		sObj(M{"items": sArr(sRef("EnvVar")), "data": M{"type": "array", "items": sRef("EnvVar"), "deprecated": true}, "pageInfo": sRef("PageInfo")}, "items", "pageInfo"), hListEnvVars, pFirst, pAfter)

	// E14 platform
	route("GET", "/api/v1/spec", "getSpec", "This OpenAPI 3.1 document", 200, nil, M{"type": "object"}, hSpec)
	route("GET", "/api/v1/app-config", "getAppConfig", "App configuration", 200, nil,
		sObj(M{"appTheme": sAny(), "applyThemeGlobally": sBool(), "creatorMode": sBool(), "embedding": sAny(), "sheetsUi": sAny(), "timezoneSettings": sAny()}), hAppConfig)
	route("GET", depP+"/settings", "getDeploymentSettings", "All deployment settings, secrets excluded", 200, nil, sData(sRef("DeploymentDetail")), hSettings)
	route("DELETE", depP, "deleteDeployment", "Delete a deployment (answers the deleted deployment)", 200, nil, sData(sObj(M{"deployment": sRef("DeploymentDetail")})), hDeleteDeployment)
	route("PUT", depP+"/env-vars", "setEnvVars", "Add or update environment variables by name", 200,
		sObj(M{"env_variables": sArr(sRef("EnvVar"))}, "env_variables"), sObj(M{"items": sArr(sRef("EnvVar")), "data": sArr(sRef("EnvVar")), "pageInfo": sRef("PageInfo")}, "items", "pageInfo"), hPutEnvVars)
	route("GET", depP+"/build-status", "getBuildStatus", "Build/deploy state of a branch", 200, nil,
		sData(sObj(M{"branchName": sStr(), "state": sEnum("deployed", "pending", "not_deployed"), "lastHash": sStr(), "steps": sArr(sAny())})), hBuildStatus, pBranch)
	route("GET", depP+"/logs", "getDeploymentLogs", "Container logs", 200, nil, sCursorList(sAny()), hLogs,
		qp("source", sEnum("production", "dev")), qp("container", sEnum("INIT", "MAIN", "vector", "api-proxy", "cubejs")), pFirst, pAfter)
	route("GET", depP+"/pods", "listPods", "Pods list", 200, nil, sCursorList(sAny()), hPods, pFirst, pAfter)
	route("POST", depP+"/creation-step/advance", "advanceCreationStep", "Advance the setup wizard", 200, nil, sData(sAny()), hAdvance)
	route("POST", depP+"/creation-step/reset", "resetCreationStep", "Reset the setup wizard", 200, nil, sData(sAny()), hReset)
	route("GET", "/api/v1/regions/", "listRegions", "Regions available to the tenant", 200, nil, sCursorList(sObj(M{"id": sStr(), "name": sStr(), "cloudProvider": sStr()})), hRegions, qp("cloudProvider", sStr()), pFirst, pAfter)

	// dbt
	route("POST", depP+"/dbt-sync", "startDbtSync", "Start a dbt sync", 202, sObj(M{"branchName": sStr(), "ref": sStr()}), sData(sRef("DbtJob")), hDbtStart)
	route("GET", depP+"/dbt-sync", "listDbtSyncRuns", "dbt sync run history", 200, nil, sCursorList(sRef("DbtJob")), hDbtList,
		qp("status", sEnum("queued", "running", "succeeded", "failed", "cancelled")), qp("trigger", sStr()), pFirst, pAfter)
	route("GET", depP+"/dbt-sync/{syncJobId}", "getDbtSync", "Poll a dbt sync", 200, nil, sData(sRef("DbtJob")), hDbtGet)
	route("DELETE", depP+"/dbt-sync/{syncJobId}", "cancelDbtSync", "Cancel a dbt sync", 200, nil, sData(sRef("DbtJob")), hDbtCancel)
	route("GET", depP+"/dbt-sync/{syncJobId}/result", "getDbtSyncResult", "Result of a finished dbt sync", 200, nil, sData(sAny()), hDbtResult)
	route("GET", depP+"/dbt-sync/{syncJobId}/logs", "getDbtSyncLogs", "Log entries of a dbt sync", 200, nil, sCursorList(sAny()), hDbtLogs, pFirst, pAfter)

	// workspace E14
	route("POST", depP+"/workspace/bulk-delete", "bulkDeleteWorkspaceItems", "Delete workspace items in bulk", 200,
		sObj(M{"items": M{"type": "array", "items": sRef("ItemRef"), "minItems": 1, "maxItems": 100}}, "items"),
		sObj(M{"deleted": sArr(sRef("ItemRef")), "failed": sArr(sRef("ItemFailure"))}, "deleted", "failed"), hBulkDelete)
	route("PUT", depP+"/reports/by-public-id/{publicId}", "upsertReportByPublicId", "Create (201) or update (200) a report by public id", 201,
		sObj(M{"name": sStr(), "sqlQuery": sStr(), "kind": sEnum("vega", "table", "kpi", "html", "map"), "meta": sAny(), "workbookId": sInt()}), sRef("Report"), hUpsertReportByPublicID)
	route("PUT", depP+"/reports/{reportId}/connect-workbook", "connectReportToWorkbook", "Place a report in a spreadsheet (201 new, 200 existing)", 201,
		sObj(M{"externalWorkbookId": sStr(), "sheetName": sStr(), "anchorCell": sStr()}, "externalWorkbookId", "sheetName", "anchorCell"), sRef("Placement"), hConnectWorkbook)
	route("DELETE", depP+"/reports/{reportId}/connect-workbook", "disconnectReportFromWorkbook", "Remove a placement (query or body address)", 200, sRef("PlacementAddress"), sRef("Placement"), hDisconnectWorkbook,
		qp("placementId", sStr()), qp("externalWorkbookId", sStr()), qp("sheetName", sStr()), qp("anchorCell", sStr()))
	route("PUT", depP+"/reports/{reportId}/refresh", "refreshReportPlacement", "Refresh a placement", 200, sRef("PlacementAddress"), sRef("Placement"), hRefreshPlacement)
	route("GET", depP+"/reports", "listReports", "List reports", 200, nil, sCursorList(sRef("Report")), hListReports,
		qp("folderId", M{"type": []string{"integer", "null"}}), qp("externalWorkbookId", sStr()), pSearch, qp("sortBy", sEnum("createdAt", "updatedAt", "lastViewedAt", "name")), pFirst, pAfter)
	route("GET", depP+"/folders", "listFolders", "List one level of folders", 200, nil, sCursorList(sRef("Folder")), hListFolders, qp("parentId", M{"type": []string{"integer", "null"}}), pFirst, pAfter)
	route("POST", depP+"/folders", "createFolder", "Create a folder", 201, sObj(M{"name": sStr(), "parentId": sNull("integer"), "position": sInt()}, "name"), sRef("Folder"), hCreateFolder)
	route("GET", depP+"/folders/{folderId}", "getFolder", "Get a folder", 200, nil, sRef("Folder"), hGetFolder)
	route("DELETE", depP+"/folders/{folderId}", "deleteFolder", "Delete a folder (contents move to root)", 200, nil, sRef("Folder"), hDeleteFolder)
	route("GET", depP+"/workbooks/{workbookId}/embed-access", "getWorkbookEmbedAccess", "Read dashboard embed access", 200, nil, sRef("EmbedAccess"), hGetEmbedAccess)
	route("PUT", depP+"/workbooks/{workbookId}/embed-access", "setWorkbookEmbedAccess", "Change dashboard embed access for a tenant or all embed users", 200,
		sObj(M{"action": sEnum("read", "none"), "tenantId": sNull("integer")}, "action"), sRef("EmbedAccess"), hPutEmbedAccess)
	route("PATCH", "/api/v1/embed/dashboard/{publicId}", "setDashboardSignedEmbedding", "Enable or disable signed embedding", 200, sObj(M{"allowEmbed": sBool()}, "allowEmbed"), sRef("Dashboard"), hPatchEmbedDashboard)
	route("POST", "/api/v1/embed/dashboard/{publicId}/python-run", "runDashboardPython", "Run a Python report with dashboard filters", 200,
		sObj(M{"reportId": sInt(), "filters": sArr(sAny())}, "reportId"), sAny(), hPythonRun)

	// embed tenants
	tenants := Crud{Coll: "embedTenants", Fields: map[string]string{"name": "string", "externalId": "string", "description": "string"}, Required: []string{"name"}, Unique: "name", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Search: []string{"name", "externalId"}}
	crudRoutes("/api/v1/embed-tenants", "tenantId", "EmbedTenant", tenants, "PATCH", M{"name": sStr(), "externalId": sStr(), "description": sStr()}, "name")
	eu := Crud{Coll: "embedUsers", Parents: [][2]string{{"tenantId", "embedTenants"}}, Fields: map[string]string{"email": "string", "externalId": "string", "firstName": "string", "attributes": "object"}, Required: []string{"email"}, Unique: "email", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Search: []string{"email"}, Validate: validateEmail("email")}
	crudRoutes("/api/v1/embed-tenants/{tenantId}/users", "userId", "EmbedUser", eu, "PATCH", M{"email": sStr(), "externalId": sStr(), "firstName": sStr(), "attributes": sAny()}, "email")
	eg := Crud{Coll: "embedGroups", Parents: [][2]string{{"tenantId", "embedTenants"}}, Fields: map[string]string{"name": "string", "description": "string"}, Required: []string{"name"}, Unique: "name", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Search: []string{"name"}}
	crudRoutes("/api/v1/embed-tenants/{tenantId}/groups", "groupId", "EmbedGroup", eg, "PATCH", M{"name": sStr(), "description": sStr()}, "name")
	em := Crud{Coll: "embedMembers", Parents: [][2]string{{"tenantId", "embedTenants"}, {"groupId", "embedGroups"}}, Fields: map[string]string{"userId": "int"}, Required: []string{"userId"}, Unique: "userId", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Validate: validateMember, IDParam: "userId"}
	route("GET", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "listEmbedGroupMembers", "List group members", 200, nil, sCursorList(sRef("Generic")), em.list, pFirst, pAfter)
	route("POST", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "addEmbedGroupMember", "Add a member", 201, sObj(M{"userId": sInt()}, "userId"), sRef("Generic"), em.create)
	route("DELETE", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members/{userId}", "removeEmbedGroupMember", "Remove a member", 200, nil, sRef("Generic"), hRemoveMember)

	// users
	route("GET", "/api/v1/users", "listUsers", "List users", 200, nil, sCursorList(sRef("User")), hListUsers, pSearch, pFirst, pAfter)
	route("POST", "/api/v1/users", "createUser", "Invite a user", 201, sObj(M{"email": sStr(), "firstName": sStr(), "lastName": sStr(), "role": sEnum("viewer", "ai_bi_user", "developer", "admin")}, "email"), sRef("User"), hCreateUser)
	route("POST", "/api/v1/users/bulk", "bulkUserAction", "Bulk DEACTIVATE / ACTIVATE / DELETE", 200,
		sObj(M{"action": sEnum("DEACTIVATE", "ACTIVATE", "DELETE"), "userIds": M{"type": "array", "items": sInt(), "minItems": 1, "maxItems": 100}}, "action", "userIds"),
		sObj(M{"action": sStr(), "succeeded": sArr(sInt()), "failed": sArr(sObj(M{"id": sInt(), "error": sObj(M{"message": sStr(), "status": sInt()})}))}, "succeeded", "failed"), hBulkUsers)
	route("GET", "/api/v1/users/{userId}", "getUser", "Get a user", 200, nil, sRef("User"), hGetUser)
	route("PUT", "/api/v1/users/{userId}", "updateUser", "Update a user (partial)", 200,
		sObj(M{"firstName": sStr(), "lastName": sStr(), "role": sEnum("viewer", "ai_bi_user", "developer", "admin"), "status": sEnum("active", "deactivated"), "permissions": sArr(sStr())}), sRef("User"), hUpdateUser)
	attrs := Crud{Coll: "userAttributes", Fields: map[string]string{"name": "string", "type": "string", "description": "string", "defaultValue": "any"}, Required: []string{"name", "type"}, Unique: "name", ReadRole: RoleViewer, WriteRole: RoleAdmin, Search: []string{"name"}, Validate: validateAttr}
	crudRoutes("/api/v1/user-attributes/", "attributeId", "UserAttribute", attrs, "PUT",
		M{"name": sStr(), "type": sEnum("string", "number", "boolean", "string_array", "number_array"), "description": sStr(), "defaultValue": M{}}, "name", "type")
	route("GET", "/api/v1/user-attribute-values/{userId}", "getUserAttributeValues", "Attribute values of a user", 200, nil, sCursorList(sRef("Generic")), hGetAttrValues, pFirst, pAfter)
	route("PUT", "/api/v1/user-attribute-values/{userId}", "setUserAttributeValues", "Set attribute values of a user (null removes)", 200,
		sObj(M{"values": sArr(sObj(M{"attributeId": sInt(), "value": M{}}, "attributeId"))}, "values"), sCursorList(sRef("Generic")), hPutAttrValues)
	route("GET", "/api/v1/tenant/settings", "getTenantSettings", "Tenant settings", 200, nil, sAny(), hGetTenant)
	route("PUT", "/api/v1/tenant/settings", "updateTenantSettings", "Update tenant settings (merge)", 200, sAny(), sAny(), hPutTenant)
	groups := Crud{Coll: "groups", Fields: map[string]string{"name": "string", "description": "string", "memberIds": "array"}, Required: []string{"name"}, Unique: "name", ReadRole: RoleViewer, WriteRole: RoleAdmin, Search: []string{"name"}}
	crudRoutes("/api/v1/groups", "groupId", "Group", groups, "PUT", M{"name": sStr(), "description": sStr(), "memberIds": sArr(sInt())}, "name")

	// integrations
	oi := Crud{Coll: "oauthIntegrations", Fields: map[string]string{"name": "string", "provider": "string", "clientId": "string", "secret": "string", "scopes": "array", "authorizeUrl": "string", "tokenUrl": "string"}, Required: []string{"name", "provider"}, Unique: "name", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Secret: []string{"secret"}, Search: []string{"name"}}
	crudRoutes("/api/v1/oauth-integrations", "integrationId", "OauthIntegration", oi, "PUT", M{"name": sStr(), "provider": sStr(), "clientId": sStr(), "secret": M{"type": "string", "writeOnly": true}, "scopes": sArr(sStr()), "authorizeUrl": sStr(), "tokenUrl": sStr()}, "name", "provider")
	ut := Crud{Coll: "userOauthTokens", Fields: map[string]string{"integrationId": "int", "userId": "int", "secret": "string", "expiresAt": "string"}, Required: []string{"integrationId", "secret"}, ReadRole: RoleViewer, WriteRole: RoleViewer, Secret: []string{"secret"}}
	crudRoutes("/api/v1/user-oauth-tokens", "tokenId", "UserOauthToken", ut, "PUT", M{"integrationId": sInt(), "userId": sInt(), "secret": M{"type": "string", "writeOnly": true}, "expiresAt": sDT()}, "integrationId", "secret")
	oc := Crud{Coll: "oidcTokenConfigs", Fields: map[string]string{"name": "string", "issuer": "string", "audience": "string", "claimsMapping": "object", "jwksUrl": "string"}, Required: []string{"name", "issuer"}, Unique: "name", ReadRole: RoleAdmin, WriteRole: RoleAdmin, Search: []string{"name"}}
	crudRoutes("/api/v1/oidc-token-configs", "configId", "OidcTokenConfig", oc, "PUT", M{"name": sStr(), "issuer": sStr(), "audience": sStr(), "claimsMapping": sAny(), "jwksUrl": sStr()}, "name", "issuer")
	route("GET", "/api/v1/github/status", "getGithubStatus", "GitHub connection status", 200, nil, sAny(), hGithubStatus)
	route("GET", "/api/v1/github/installations", "listGithubInstallations", "GitHub app installations", 200, nil, sCursorList(sAny()), hGithubInstallations, pFirst, pAfter)
	route("GET", "/api/v1/github/installations/{installationId}/repositories", "listGithubRepositories", "Repositories of an installation", 200, nil, sCursorList(sAny()), hGithubRepos, pFirst, pAfter)
	route("GET", "/api/v1/github/repositories/{owner}/{repo}/branches", "listGithubBranches", "Branches of a repository", 200, nil, sCursorList(sAny()), hGithubBranches, pFirst, pAfter)

	// notifications
	nt := Crud{Coll: "notifications", DepScoped: true, Fields: map[string]string{"name": "string", "workbookId": "int", "schedule": "string", "timezone": "string", "recipients": "array", "dashboardFilters": "array", "timeGrain": "string", "enabled": "bool"},
		Required: []string{"name", "schedule"}, ReadRole: RoleViewer, WriteRole: RoleAIBI, Search: []string{"name"}, Validate: validateNotification}
	crudRoutes(depP+"/notifications", "notificationId", "Notification", nt, "PUT",
		M{"name": sStr(), "workbookId": sInt(), "schedule": sStr(), "timezone": sStr(), "recipients": sArr(sStr()), "enabled": sBool(), "timeGrain": sEnum("hour", "day", "week", "month", "quarter", "year"),
			"dashboardFilters": sArr(sObj(M{"member": sStr(), "operator": sEnum("equals", "notEquals", "contains", "notContains", "gt", "gte", "lt", "lte", "set", "notSet", "inDateRange", "is_empty", "is_not_empty"), "values": sArr(sStr())}, "member", "operator"))}, "name", "schedule")

	// build API
	route("POST", "/build/api/v1/deployments/", "createDeployment", "Create a deployment", 201,
		sObj(M{"name": sStr(), "cloudProvider": sEnum("platform", "aws", "gcp"), "region": sStr(), "creationMethod": sEnum("upload", "platform", "github", "ssh"), "deployMode": sEnum("git", "cli")}, "name"),
		sData(sObj(M{"deployment": sRef("DeploymentDetail")})), hCreateDeployment)
	route("GET", bld+"/data-model/files", "listDataModelFiles", "List data-model files", 200, nil, sCursorList(sRef("DataModelFile")), hListFiles, pBranch, pFirst, pAfter)
	route("PUT", bld+"/data-model/files", "writeDataModelFiles", "Write data-model files (dev-mode branches only)", 200,
		sObj(M{"branchName": sStr(), "files": sArr(sObj(M{"path": sStr(), "content": sStr()}, "path", "content"))}, "branchName", "files"), sData(sAny()), hWriteFiles)
	route("DELETE", bld+"/data-model/files", "deleteDataModelFiles", "Remove data-model files (dev-mode branches only)", 200,
		sObj(M{"branchName": sStr(), "paths": sArr(sStr())}), sData(sAny()), hDeleteFiles, pBranch, qp("path", sArr(sStr())))
	route("POST", bld+"/data-model/files/rename", "renameDataModelFiles", "Rename files (all or nothing)", 200,
		sObj(M{"branchName": sStr(), "files": sArr(sObj(M{"path": sStr(), "newPath": sStr()}, "path", "newPath"))}, "branchName", "files"), sData(sAny()), hRenameFiles)
	route("GET", bld+"/data-model/validate", "validateDataModel", "Compile a branch (errors: 200 with valid=false)", 200, nil,
		sData(sObj(M{"valid": sBool(), "errors": sArr(sObj(M{"file": sStr(), "line": sInt(), "message": sStr()}))}, "valid", "errors")), hValidate, pBranch)
	route("POST", bld+"/data-model/upload/start", "startUpload", "Start a chunked upload", 201, sObj(M{"branchName": sStr()}), sData(sObj(M{"uploadId": sStr()})), hUploadStart)
	route("POST", bld+"/data-model/upload/file", "uploadFileChunk", "Upload a file chunk", 200, sObj(M{"uploadId": sStr(), "path": sStr(), "content": sStr()}, "uploadId", "path", "content"), sData(sAny()), hUploadFile)
	route("POST", bld+"/data-model/upload/finish", "finishUpload", "Finish a chunked upload", 200, sObj(M{"uploadId": sStr()}, "uploadId"), sData(sAny()), hUploadFinish)
	route("GET", bld+"/data-model/file-hashes", "listFileHashes", "File hashes", 200, nil, sCursorList(sObj(M{"path": sStr(), "hash": sStr()})), hFileHashes, pBranch, pFirst, pAfter)
	route("POST", bld+"/dev-mode", "startDevMode", "Start dev mode", 200, sObj(M{"branchName": sStr()}), sData(sRef("Branch")), hDevModeStart)
	route("DELETE", bld+"/dev-mode", "stopDevMode", "Stop dev mode", 200, nil, sData(sAny()), hDevModeStop, pBranch)
	route("GET", bld+"/branches", "listBranches", "List branches", 200, nil, sCursorList(sRef("Branch")), hListBranches, pFirst, pAfter)
	route("POST", bld+"/branches", "createBranch", "Create a branch", 201, sObj(M{"name": sStr(), "from": sStr(), "activate": sBool()}, "name"), sData(sRef("Branch")), hCreateBranch)
	route("DELETE", bld+"/branches", "deleteBranch", "Delete a branch (children re-parented)", 200, nil, sData(sAny()), hDeleteBranch,
		map[string]any{"name": "branchName", "in": "query", "required": true, "schema": sStr()}, qp("removeOnUpstream", sBool()))
	for _, op := range []string{"commit", "pull", "merge", "merge-to-default"} {
		req := sObj(M{"branchName": sStr()}, "branchName")
		if op == "commit" {
			req = sObj(M{"branchName": sStr(), "message": sStr()}, "branchName", "message")
		}
		if op == "merge" {
			req = sObj(M{"branchName": sStr(), "targetBranchName": sStr()}, "branchName")
		}
		id := map[string]string{"commit": "commitBranch", "pull": "pullBranch", "merge": "mergeBranch", "merge-to-default": "mergeBranchToDefault"}[op]
		route("POST", bld+"/"+op, id, "Branch operation: "+op, 200, req, sData(sAny()), hGitOp(op))
	}
	route("POST", bld+"/github/connect", "connectGithub", "Connect to a repository", 200, sObj(M{"repository": sStr(), "branch": sStr(), "installationId": sInt()}, "repository"), sData(sAny()), hGithubConnect)
}

func hRemoveMember(c *Ctx) {
	if !needRole(c, RoleAdmin) {
		return
	}
	tid, gid, uid := c.P["tenantId"], c.P["groupId"], c.P["userId"]
	if _, t := coll("embedTenants").byID(tid, nil); t == nil {
		fail(c, 404, "not_found", "tenant "+tid+" not found")
		return
	}
	if _, g := coll("embedGroups").byID(gid, map[string]any{"tenantId": tid}); g == nil {
		fail(c, 404, "not_found", "group "+gid+" not found")
		return
	}
	cl := coll("embedMembers")
	i, m := cl.find(func(m map[string]any) bool {
		return itoaAny(m["groupId"]) == gid && itoaAny(m["userId"]) == uid
	})
	if m == nil {
		fail(c, 404, "not_found", "user "+uid+" is not a member of group "+gid)
		return
	}
	cl.Items = append(cl.Items[:i:i], cl.Items[i+1:]...)
	send(c, 200, m)
}

func itoaAny(v any) string {
	switch t := v.(type) {
	case int:
		return itoa0(t)
	case float64:
		return itoa0(int(t))
	}
	return ""
}

func itoa0(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	s := itoa(i)
	if neg {
		s = "-" + s
	}
	return s
}
