#!/usr/bin/env bash
# Smoke test: starts a fresh server, exercises E1-E14 with curl for each role, checks the answers
# against the server's own OpenAPI document. Needs curl, jq, python3 (jsonschema, openapi-spec-validator).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$HERE/var"; OUT="$(mktemp -d "$HERE/var/smoke.XXXXXX")"
"$HERE/run.sh" 0 > "$OUT/start" 2> "$OUT/server.log" &
RUN_PID=$!
trap 'kill -TERM $RUN_PID 2>/dev/null; wait $RUN_PID 2>/dev/null; rm -rf "$OUT"' EXIT
for i in $(seq 1 100); do [ -s "$OUT/start" ] && break; sleep 0.1; done
START="$(head -1 "$OUT/start")"
BASE="$(jq -r .baseUrl <<<"$START")"
tok() { jq -r ".tokens.$1" <<<"$START"; }
ADMIN=$(tok admin); DEV=$(tok developer); AI=$(tok aiBiUser); VIEW=$(tok viewer); AUD=$(tok auditor)
SCOPED=$(tok scoped); EMB=$(tok embedCreator); DEACT=$(tok deactivated)
DM=$(jq -r .fixtures.mutableDeploymentId <<<"$START"); DL=$(jq -r .fixtures.workbookLimitDeploymentId <<<"$START"); DS=$(jq -r .fixtures.scopedDeploymentId <<<"$START")
PASS=0; FAIL=0; N=0; LAST=""
ok() { PASS=$((PASS+1)); }
bad() { FAIL=$((FAIL+1)); echo "FAIL: $*"; }
# req NAME EXPECTED METHOD PATH TOKEN [BODY] [extra curl args...]
req() {
  local name="$1" exp="$2" m="$3" p="$4" t="$5" body="${6-}"; shift 6 2>/dev/null || shift $#
  N=$((N+1)); LAST="$OUT/r$N"
  local args=(-s -o "$LAST" -w '%{http_code}\t%{content_type}' -X "$m" "$BASE$p")
  [ "$t" != "-" ] && args+=(-H "Authorization: Bearer $t")
  [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
  local res; res="$(curl "${args[@]}" "$@")"
  local code="${res%%$'\t'*}" ct="${res#*$'\t'}"
  printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$p" "$code" "$LAST" "$ct" >> "$OUT/log"
  if [ "$code" = "$exp" ]; then ok; else bad "$name: expected $exp, got $code: $(head -c 300 "$LAST")"; fi
}
# chk NAME JQ-EXPR  (evaluated on the last answer; must be true)
chk() { if jq -e "$2" "$LAST" >/dev/null 2>&1; then ok; else bad "$1: '$2' on $(head -c 300 "$LAST")"; fi; }
val() { jq -r "$1" "$LAST"; }

echo "== server at $BASE"
# ---- authentication ----
req "no key" 401 GET /api/v1/deployments -
chk "401 body" '.error and .reason'
req "unknown key" 401 GET /api/v1/deployments pk_nope
req "malformed header" 401 GET /api/v1/deployments - "" -H "Authorization: Basic abc"
req "Api-Key scheme" 200 GET /api/v1/deployments - "" -H "Authorization: Api-Key $ADMIN"
req "deactivated key" 403 GET /api/v1/deployments "$DEACT"
req "unknown route" 404 GET /api/v1/nothing-here "$ADMIN"
req "wrong method" 405 PATCH /api/v1/deployments "$ADMIN"
# ---- E1 ----
req "E1 admin" 200 GET /api/v1/deployments "$ADMIN"
chk "E1 shape" '(.data.deployments|length)==3 and .pagination.total==3 and .pagination.limit==20 and .pagination.offset==0'
chk "E1 hides scoped deployment" "[.data.deployments[].id]|index(\"$DS\")==null"
req "E1 scoped" 200 GET /api/v1/deployments "$SCOPED"
chk "E1 scoped sees one" "(.data.deployments|length)==1 and .data.deployments[0].id==\"$DS\""
req "E1 paging" 200 GET "/api/v1/deployments?offset=1&limit=1" "$VIEW"
chk "E1 page" '(.data.deployments|length)==1 and .pagination.offset==1 and .pagination.limit==1 and .pagination.total==3'
req "E1 limit=0" 400 GET "/api/v1/deployments?limit=0" "$ADMIN"
req "E1 offset=-1" 400 GET "/api/v1/deployments?offset=-1" "$ADMIN"
req "E1 limit=abc" 400 GET "/api/v1/deployments?limit=abc" "$ADMIN"
req "E1 huge limit" 200 GET "/api/v1/deployments?limit=99999999999999999999999" "$ADMIN"
# ---- E2 ----
req "E2 list" 200 GET "/api/v1/deployments/$DM/environments" "$DEV"
chk "E2 shape" '(.items|length)==3 and .pageInfo.hasNextPage==false and (.data|length)==3 and .pagination==null'
chk "E2 staging listed" '[.items[]|select(.type=="staging")|.branch]==["analytics-v2"]'
PRODENV=$(jq -r '.items[]|select(.type=="production")|.id' "$LAST")
req "E2 type filter" 200 GET "/api/v1/deployments/$DM/environments?type=production" "$VIEW"
chk "E2 filtered" '(.items|length)==1 and .items[0].type=="production"'
req "E2 first=1" 200 GET "/api/v1/deployments/$DM/environments?first=1" "$VIEW"
chk "E2 cursor page" '(.items|length)==1 and .pageInfo.hasNextPage==true and (.pageInfo.endCursor|type)=="string"'
CUR=$(val .pageInfo.endCursor)
req "E2 after" 200 GET "/api/v1/deployments/$DM/environments?first=5&after=$CUR" "$VIEW"
chk "E2 after page" '(.items|length)==2 and .pageInfo.hasPreviousPage==true'
req "E2 offset/limit" 200 GET "/api/v1/deployments/$DM/environments?offset=1&limit=1" "$VIEW"
chk "E2 legacy slice" '(.data|length)==1 and .pagination.offset==1 and .pagination.total==3 and (.items|length)==3'
req "E2 limit=0 allowed" 200 GET "/api/v1/deployments/$DM/environments?limit=0" "$VIEW"
chk "E2 limit=0" '(.data|length)==0'
req "E2 bad type" 400 GET "/api/v1/deployments/$DM/environments?type=qa" "$VIEW"
req "E2 first=0" 400 GET "/api/v1/deployments/$DM/environments?first=0" "$VIEW"
req "E2 bad cursor" 400 GET "/api/v1/deployments/$DM/environments?after=zzz" "$VIEW"
req "E2 unknown deployment" 404 GET "/api/v1/deployments/999999/environments" "$ADMIN"
req "E2 scoped on other" 403 GET "/api/v1/deployments/$DM/environments" "$SCOPED"
req "E2 admin on scoped-only" 404 GET "/api/v1/deployments/$DS/environments" "$ADMIN"
req "E2 scoped own" 200 GET "/api/v1/deployments/$DS/environments" "$SCOPED"
# ---- E3 ----
req "E3 token" 200 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$DEV" '{"security_context":{"tenant":"acme"},"expires_in":3600}'
chk "E3 shape" '(.data.token|split(".")|length)==3 and (((.data.expires_at|sub("\\+00:00$";"Z")|fromdate) - (.data.created_at|sub("\\+00:00$";"Z")|fromdate))==3600)'
JWT=$(val .data.token)
req "E3 default lifetime" 200 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$VIEW" '{"security_context":{}}'
chk "E3 86400" '((.data.expires_at|sub("\\+00:00$";"Z")|fromdate) - (.data.created_at|sub("\\+00:00$";"Z")|fromdate))==86400'
req "E3 missing context" 422 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$DEV" '{"expires_in":60}'
req "E3 context not object" 422 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$DEV" '{"security_context":[1]}'
req "E3 bad expires" 422 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$DEV" '{"security_context":{},"expires_in":"soon"}'
req "E3 bad JSON" 400 POST "/api/v1/deployments/$DM/environments/$PRODENV/tokens-for-meta-sync" "$DEV" '{"security_context":'
req "E3 unknown env" 404 POST "/api/v1/deployments/$DM/environments/nope/tokens-for-meta-sync" "$DEV" '{"security_context":{}}'
req "E3 JWT is not an API key" 401 GET /api/v1/deployments "$JWT"
# ---- E4 ----
req "E4 enable shared" 200 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" '{"enabled":true,"branchName":"feature-churn"}'
chk "E4 shape" '.data.isStagingEnvironmentEnabled==true and .data.name=="feature-churn" and (.data.id|type)=="number" and .data.parentBranch=="main"'
BRID=$(val .data.id)
req "E2 after enable" 200 GET "/api/v1/deployments/$DM/environments?type=staging" "$DEV"
chk "E4 staging env appears" '[.items[].branch]|index("feature-churn")!=null'
req "E4 disable by id" 200 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" "{\"enabled\":false,\"branchId\":$BRID}"
chk "E4 disabled" '.data.isStagingEnvironmentEnabled==false'
req "E4 production" 400 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" '{"enabled":true,"branchName":"main"}'
req "E4 personal" 400 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" '{"enabled":true,"branchName":"dev-dana"}'
req "E4 unknown" 404 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" '{"enabled":true,"branchName":"nope"}'
req "E4 both" 422 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" "{\"enabled\":true,\"branchName\":\"feature-churn\",\"branchId\":$BRID}"
req "E4 enabled missing" 422 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$DEV" '{"branchName":"feature-churn"}'
req "E4 viewer" 403 PUT "/build/api/v1/deployments/$DM/branches/staging-environment" "$VIEW" '{"enabled":true,"branchName":"feature-churn"}'
# ---- E5/E6 ----
req "E5 versions" 200 GET "/api/v1/deployments/$DM/versions" "$VIEW"
chk "E5 shape" '([.data[]|select(.isCurrent)]|length)==1 and ([.data[]|select(.isLatestInChannel)]|length)==2 and ([.data[].releaseChannel]|unique)==["latest","release"]'
req "E6 set version v-form" 200 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"releaseChannelVersion":"v1.7.13"}'
chk "E6 hold" '.data.version=="1.7.13" and .data.releaseChannelVersionHold==true and .data.releaseChannelVersion=="cubejs/cube:v1.7.13"'
req "E6 image form" 200 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"releaseChannelVersion":"cubejs/cube:v1.6.11"}'
chk "E6 channel follows" '.data.releaseChannel=="release"'
req "E6 unknown version" 400 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"releaseChannelVersion":"1.7.99"}'
req "E6 garbage version" 400 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"releaseChannelVersion":"latest-and-greatest"}'
req "E6 channel only" 200 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"releaseChannel":"latest"}'
chk "E6 moved to head" '.data.version=="1.7.24" and .data.releaseChannelVersionHold==false'
req "E5 history" 200 GET "/api/v1/deployments/$DM/versions" "$VIEW"
chk "E5 current" '[.data[]|select(.isCurrent)|.version]==["1.7.24"]'
req "E6 template vars merge" 200 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"templateVariables":{"NEW_VAR":"x"},"image":"evil/image:1"}'
chk "E6 merged" '.data.templateVariables.NEW_VAR=="x" and .data.templateVariables.CUBEJS_LOG_LEVEL=="info" and (.ignoredFields|index("image"))!=null and .data.image=="cubejs/cube:v1.7.24"'
req "E6 viewer" 403 PUT "/api/v1/deployments/$DM" "$VIEW" '{"releaseChannel":"latest"}'
req "E6 bad type" 422 PUT "/api/v1/deployments/$DM" "$ADMIN" '{"deployMode":"ftp"}'
req "E6 unknown dep" 404 PUT "/api/v1/deployments/424242" "$ADMIN" '{"releaseChannel":"latest"}'
# ---- E7 ----
req "E7 auditor" 200 GET "/api/v1/audit-logs/export" "$AUD"
if head -1 "$LAST" | grep -q "Event Name"; then ok; else bad "E7 header"; fi
if grep -q '\[HIDDEN\]' "$LAST"; then ok; else bad "E7 hidden"; fi
req "E7 event filter" 200 GET "/api/v1/audit-logs/export?eventName=logged%20in" "$ADMIN"
if [ "$(tail -n +2 "$LAST" | grep -vc ',Logged in,')" = "0" ] && [ "$(wc -l < "$LAST")" -gt 1 ]; then ok; else bad "E7 eventName filter"; fi
req "E7 date range" 200 GET "/api/v1/audit-logs/export?start=2025-12-29&end=2025-12-30" "$ADMIN"
req "E7 developer" 403 GET "/api/v1/audit-logs/export" "$DEV"
req "E7 bad date" 400 GET "/api/v1/audit-logs/export?start=yesterday" "$AUD"
req "E7 start>end" 400 GET "/api/v1/audit-logs/export?start=2026-02-01&end=2026-01-01" "$AUD"
# ---- E8/E9 ----
req "E8 page 1" 200 GET "/api/v1/deployments/$DM/workbooks?first=5" "$ADMIN"
chk "E8 shape" '(.items|length)==5 and .pageInfo.hasNextPage==true and .count>20 and (.data|length)==5 and ([.items[].type]|unique)==["WORKBOOK"]'
CUR=$(val .pageInfo.endCursor); FIRSTIDS=$(jq -c '[.items[].id]' "$LAST")
req "E8 page 2" 200 GET "/api/v1/deployments/$DM/workbooks?first=5&after=$CUR" "$ADMIN"
chk "E8 no overlap" "([.items[].id] - $FIRSTIDS | length)==5 and .pageInfo.hasPreviousPage==true"
req "E8 default page" 200 GET "/api/v1/deployments/$DM/workbooks" "$ADMIN"
chk "E8 default size" '(.items|length)==16'
req "E8 root" 200 GET "/api/v1/deployments/$DM/workbooks?folderId=0&first=100" "$ADMIN"
chk "E8 root only" '[.items[].folderId]|unique==[null]'
req "E8 folders for viewer" 200 GET "/api/v1/deployments/$DM/folders" "$VIEW"
chk "E8 viewer can't see restricted" '[.items[].name]|(index("Finance")==null and index("Executive")==null)'
req "E8 folders for admin" 200 GET "/api/v1/deployments/$DM/folders?first=50" "$ADMIN"
FIN=$(jq -r '.items[]|select(.name=="Finance")|.id' "$LAST"); SAND=$(jq -r '.items[]|select(.name=="Sandbox")|.id' "$LAST"); MKT=$(jq -r '.items[]|select(.name=="Marketing")|.id' "$LAST"); SCR=$(jq -r '.items[]|select(.name=="Scratch")|.id' "$LAST")
req "E8 folder filter ai" 200 GET "/api/v1/deployments/$DM/workbooks?folderId=$FIN" "$AI"
chk "E8 finance for aiBiUser" '(.items|length)==2'
BUDGET=$(jq -r '.items[]|select(.name=="Budget 2026")|.id' "$LAST")
req "E8 folder filter viewer" 403 GET "/api/v1/deployments/$DM/workbooks?folderId=$FIN" "$VIEW"
req "E8 unknown folder" 404 GET "/api/v1/deployments/$DM/workbooks?folderId=1" "$ADMIN"
req "E8 bad folderId" 400 GET "/api/v1/deployments/$DM/workbooks?folderId=abc" "$ADMIN"
req "E8 first=0" 400 GET "/api/v1/deployments/$DM/workbooks?first=0" "$ADMIN"
req "E8 bad cursor" 400 GET "/api/v1/deployments/$DM/workbooks?after=ck_%21%21" "$ADMIN"
req "E8 all" 200 GET "/api/v1/deployments/$DM/workbooks?first=1000" "$ADMIN"
REV=$(jq -r '.items[]|select(.name=="Revenue Overview")|.id' "$LAST"); PLAY=$(jq -r '.items[]|select(.name=="Playground")|.id' "$LAST")
CHURN=$(jq -r '.items[]|select(.name=="Churn Drivers")|.id' "$LAST"); INV=$(jq -r '.items[]|select(.name=="Inventory")|.id' "$LAST")
Q1=$(jq -r '.items[]|select(.name=="Q1 Close")|.id' "$LAST")
chk "E8 date-only createdAt present" '[.items[].createdAt|select(test("^[0-9-]+$"))]|length>0'
chk "E8 folderPath for deep item" '[.items[]|select(.name=="2023 Audit Trail")|.folderPath|map(.name)]==[["Finance","Quarterly","Archive"]]'
req "E8 unknown dep" 404 GET "/api/v1/deployments/777/workbooks" "$ADMIN"
req "E9 get" 200 GET "/api/v1/deployments/$DM/workbooks/$REV" "$VIEW"
chk "E9 dashboard" '.publishedDashboard.allowEmbed==true and .publishedDashboard.status=="published" and (.publishedDashboard.reportSnapshots|length)==3 and .dashboardPublished.kind=="CLASSIC"'
req "E9 legacy tabs" 200 GET "/api/v1/deployments/$DM/workbooks/$CHURN" "$VIEW"
chk "E9 stored TABS_CONTAINER converted" '[.dashboardDraft.widgets[]|select(.config.layout=="tabs")|.type]==["CONTAINER"] and .publishedDashboard==null'
req "E9 other deployment" 404 GET "/api/v1/deployments/$DL/workbooks/$REV" "$ADMIN"
req "E9 missing" 404 GET "/api/v1/deployments/$DM/workbooks/1" "$ADMIN"
req "E9 non-numeric" 404 GET "/api/v1/deployments/$DM/workbooks/abc" "$ADMIN"
req "E9 no read access" 403 GET "/api/v1/deployments/$DM/workbooks/$BUDGET" "$VIEW"
# ---- E10 ----
req "E10 clone" 200 POST "/api/v1/deployments/$DM/workbooks/$REV/duplicate" "$DEV" ''
chk "E10 copy" ".name==\"Copy of Revenue Overview\" and .id!=$REV and .publishedDashboard.allowEmbed==false and .slug==null and .folderId==null and .createdBy!=null"
CLONE=$(val .id)
chk "E10 remapped" "([.publishedDashboard.config.widgets[].config.reportId|select(.!=null)] - [.publishedDashboard.reportSnapshots[].reportId] | length)==0 and ([.publishedDashboard.reportSnapshots[].reportId]|all(. > $REV))"
req "E10 source unchanged" 200 GET "/api/v1/deployments/$DM/workbooks/$REV" "$ADMIN"
chk "E10 source allowEmbed" '.publishedDashboard.allowEmbed==true'
req "E10 ai in edit folder" 200 POST "/api/v1/deployments/$DM/workbooks/$PLAY/duplicate" "$AI" '{}'
chk "E10 placed in folder" ".folderId==$SAND and .user.email==\"iris.novak@acme-analytics.test\""
req "E10 ai with read-only folder" 200 POST "/api/v1/deployments/$DM/workbooks/$BUDGET/duplicate" "$AI" '{"shared":false}'
chk "E10 placed at root" '.folderId==null'
req "E10 viewer" 403 POST "/api/v1/deployments/$DM/workbooks/$REV/duplicate" "$VIEW" ''
req "E10 viewer no read" 403 POST "/api/v1/deployments/$DM/workbooks/$BUDGET/duplicate" "$VIEW" ''
req "E10 shared by non-creator" 403 POST "/api/v1/deployments/$DM/workbooks/$REV/duplicate" "$ADMIN" '{"shared":true}'
req "E10 shared creator" 200 POST "/api/v1/deployments/$DM/workbooks/$REV/duplicate" "$EMB" '{"shared":true}'
chk "E10 shared result" '.folderId==null and .publishedDashboard.fromSharedWorkspace==true and (.publishedDashboard.reportSnapshots|length)==3 and .dashboardDraft!=null'
req "E10 shared without dashboard" 400 POST "/api/v1/deployments/$DM/workbooks/$CHURN/duplicate" "$EMB" '{"shared":true}'
req "E10 missing" 404 POST "/api/v1/deployments/$DM/workbooks/12345/duplicate" "$ADMIN" ''
req "E10 other deployment" 404 POST "/api/v1/deployments/$DL/workbooks/$REV/duplicate" "$ADMIN" ''
req "E10 bad shared type" 422 POST "/api/v1/deployments/$DM/workbooks/$REV/duplicate" "$ADMIN" '{"shared":"yes"}'
req "E8 limit dep" 200 GET "/api/v1/deployments/$DL/workbooks" "$ADMIN"
LWB=$(val '.items[0].id')
req "E10 workbook limit" 400 POST "/api/v1/deployments/$DL/workbooks/$LWB/duplicate" "$ADMIN" ''
# ---- E11 ----
SLUG="smoke-$RANDOM"
req "E11 create" 200 PUT "/api/v1/deployments/$DM/workbooks/by-slug/%20${SLUG^^}%20" "$AI" '{"name":"Smoke WB","meta":{"a":1}}'
chk "E11 created" ".slug==\"$SLUG\" and .name==\"Smoke WB\" and .meta.a==1"
SID=$(val .id); UPD=$(val .updatedAt)
req "E11 same again" 200 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$AI" '{"name":"Smoke WB","meta":{"a":1}}'
chk "E11 idempotent" ".id==$SID and .updatedAt==\"$UPD\""
req "E11 merge meta" 200 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$AI" '{"meta":{"b":2,"dashboardDraft":{"kind":"CLASSIC","widgets":[{"id":"t","type":"TABS_CONTAINER","position":{"x":0,"y":0,"w":4,"h":2}}]}}}'
chk "E11 merged" '.meta.a==1 and .meta.b==2 and .name=="Smoke WB" and .dashboardDraft.widgets[0].type=="CONTAINER" and .dashboardDraft.widgets[0].config.layout=="tabs"'
req "E11 bad draft" 422 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$AI" '{"meta":{"dashboardDraft":{"widgets":[{"id":"x","type":"NOPE","position":{"x":0,"y":0,"w":1,"h":1}}]}}}'
req "E11 long entry" 422 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$AI" "{\"meta\":{\"dashboardDraft\":{\"kind\":\"APP\",\"app\":{\"entry\":\"$(printf 'a%.0s' $(seq 1 256))\"}}}}"
req "E11 move needs manage" 403 PUT "/api/v1/deployments/$DM/workbooks/by-slug/revenue-overview" "$DEV" "{\"folderId\":$MKT}"
req "E11 viewer create" 403 PUT "/api/v1/deployments/$DM/workbooks/by-slug/viewer-$RANDOM" "$VIEW" '{"name":"x"}'
req "E11 viewer update" 403 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$VIEW" '{"name":"x"}'
req "E11 unknown dep" 404 PUT "/api/v1/deployments/999999/workbooks/by-slug/$SLUG" "$ADMIN" '{"name":"x"}'
req "E11 bad name type" 422 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$ADMIN" '{"name":5}'
req "E11 non-ascii" 200 PUT "/api/v1/deployments/$DM/workbooks/by-slug/caf%C3%A9-$RANDOM" "$ADMIN" '{"name":"Café ☕"}'
chk "E11 unicode kept" '.name=="Café ☕"'
req "E11 move by owner" 200 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$ADMIN" "{\"folderId\":$SAND}"
chk "E11 moved" ".folderId==$SAND"
RACE="race-$RANDOM"
PIDS=()
for i in 1 2 3 4 5 6; do curl -s -o /dev/null -w '%{http_code}\n' -X PUT -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' --data '{"name":"Race"}' "$BASE/api/v1/deployments/$DM/workbooks/by-slug/$RACE" >> "$OUT/race" & PIDS+=($!); done
wait "${PIDS[@]}"
C200=$(grep -c '^200$' "$OUT/race"); C409=$(grep -c '^409$' "$OUT/race")
if [ "$C200" -ge 1 ] && [ $((C200 + C409)) = 6 ]; then ok; else bad "E11 race: $(tr '\n' ' ' < "$OUT/race")"; fi
req "E8 race result" 200 GET "/api/v1/deployments/$DM/workbooks?first=1000" "$ADMIN"
chk "E11 one workbook per slug" "[.items[]|select(.slug==\"$RACE\")]|length==1"
echo "   (race: $C200 x 200, $C409 x 409)"
# ---- E12 ----
req "E12 mixed" 200 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$DEV" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$CLONE},{\"type\":\"WORKBOOK\",\"id\":$CLONE},{\"type\":\"WORKBOOK\",\"id\":1},{\"type\":\"FOLDER\",\"id\":$MKT},{\"type\":\"REPORT\",\"id\":$REV}],\"folderId\":$MKT}"
chk "E12 result" "(.moved|length)==1 and .moved[0].id==$CLONE and .moved[0].folderId==$MKT and ([.failed[]|.error.status]|sort)==[400,404,404]"
req "E12 no access" 200 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$VIEW" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$REV}],\"folderId\":null}"
chk "E12 403 per item" '.moved==[] and .failed[0].error.status==403 and .failed[0].type=="WORKBOOK"'
req "E12 folder to root" 200 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" "{\"items\":[{\"type\":\"FOLDER\",\"id\":$SCR}],\"folderId\":$MKT}"
chk "E12 folder parent" ".moved[0].type==\"FOLDER\" and .moved[0].folderId==$MKT"
req "E12 empty" 200 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" '{"items":[],"folderId":null}'
chk "E12 empty ok" '.moved==[] and .failed==[]'
BIG=$(jq -nc '[range(1;102)|{type:"WORKBOOK",id:.}]')
req "E12 >100" 422 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" "{\"items\":$BIG}"
req "E12 bad item" 422 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" '{"items":[{"type":"DASHBOARD","id":1}]}'
req "E12 not object" 400 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" '[1,2]'
# ---- E13 ----
req "E13 list" 200 GET "/api/v1/deployments/$DM/env-vars?first=100" "$DEV"
chk "E13 masked" '([.items[]|select(.name=="CUBEJS_DB_PASS")|.value]==["[ENCRYPTED]"]) and ([.items[]|select(.name=="LOG_LEVEL")|.value]==["info"]) and ([.items[]|select(.name=="db_password_hint")|.value]==["[ENCRYPTED]"])'
req "E13 page" 200 GET "/api/v1/deployments/$DM/env-vars?first=5" "$DEV"
chk "E13 paged" '(.items|length)==5 and .pageInfo.hasNextPage==true'
CUR=$(val .pageInfo.endCursor)
req "E13 page 2" 200 GET "/api/v1/deployments/$DM/env-vars?first=5&after=$CUR" "$DEV"
chk "E13 page 2" '(.items|length)==5 and .pageInfo.hasPreviousPage==true'
req "E13 viewer" 403 GET "/api/v1/deployments/$DM/env-vars" "$VIEW"
req "E13 put" 200 PUT "/api/v1/deployments/$DM/env-vars" "$DEV" '{"env_variables":[{"name":"SMOKE_VAR","value":"1"},{"name":"SMOKE_SECRET","value":"s"}]}'
chk "E13 put answer" '(.items|length)==2 and ([.items[]|select(.name=="SMOKE_SECRET")|.value]==["[ENCRYPTED]"])'
req "E13 placeholder" 422 PUT "/api/v1/deployments/$DM/env-vars" "$DEV" '{"env_variables":[{"name":"X","value":"[ENCRYPTED]"}]}'
req "E13 bad name" 422 PUT "/api/v1/deployments/$DM/env-vars" "$DEV" '{"env_variables":[{"name":"1BAD","value":"x"}]}'
req "E13 missing key" 422 PUT "/api/v1/deployments/$DM/env-vars" "$DEV" '{"vars":[]}'
PIDS=()
for i in $(seq 1 20); do curl -s -o /dev/null -X PUT -H "Authorization: Bearer $DEV" -H 'Content-Type: application/json' --data "{\"env_variables\":[{\"name\":\"PAR_$i\",\"value\":\"v$i\"}]}" "$BASE/api/v1/deployments/$DM/env-vars" & PIDS+=($!); done
wait "${PIDS[@]}"
req "E13 after parallel" 200 GET "/api/v1/deployments/$DM/env-vars?first=1000" "$DEV"
chk "E13 none lost" '[.items[]|select(.name|startswith("PAR_"))]|length==20'
# ---- E14: spec, app config, settings ----
req "spec" 200 GET /api/v1/spec "$VIEW"
cp "$LAST" "$OUT/spec.json"
chk "spec doc" '.openapi=="3.1.0" and .info.version=="1.0.0"'
req "app-config" 200 GET /api/v1/app-config "$EMB"
chk "creator mode" '.appConfig.creatorMode==true'
req "settings" 200 GET "/api/v1/deployments/$DM/settings" "$DEV"
chk "settings no secrets" '(.settings.environmentVariables|has("CUBEJS_DB_PASS"))==false and .settings.environmentVariables.LOG_LEVEL=="info"'
req "get deployment" 200 GET "/api/v1/deployments/$DM" "$VIEW"
req "build-status" 200 GET "/api/v1/deployments/$DM/build-status?branchName=main" "$DEV"
req "build-status unknown branch" 404 GET "/api/v1/deployments/$DM/build-status?branchName=nope" "$DEV"
req "logs" 200 GET "/api/v1/deployments/$DM/logs?source=dev&container=INIT" "$DEV"
chk "logs filtered" '[.items[]|.source]|unique==["dev"]'
req "logs bad container" 400 GET "/api/v1/deployments/$DM/logs?container=nginx" "$DEV"
req "pods" 200 GET "/api/v1/deployments/$DM/pods" "$DEV"
req "regions" 200 GET /api/v1/regions/ "$VIEW"
req "regions redirect" 302 GET /api/v1/regions "$VIEW"
req "HEAD" 200 HEAD "/api/v1/deployments/$DM/versions" "$VIEW" "" -I
req "trailing slash alias for POST" 422 POST /build/api/v1/deployments "$ADMIN" '{"name":""}'
req "Api-Key on build prefix" 200 GET "/build/api/v1/deployments/$DM/branches" - "" -H "Authorization: Api-Key $DEV"
req "wizard advance" 200 POST "/api/v1/deployments/120391/creation-step/advance" "$DEV" ''
chk "wizard step" '.creationStep.step=="data-model"'
req "wizard reset" 200 POST "/api/v1/deployments/120391/creation-step/reset" "$DEV" ''
req "create deployment" 201 POST /build/api/v1/deployments/ "$ADMIN" '{"name":"Smoke Deployment","cloudProvider":"<hosted>","creationMethod":"upload","deployMode":"cli"}'
NEWD=$(val .deployment.id)
chk "created" '.deployment.cloudProvider=="cubecloud"'
req "create deployment viewer" 403 POST /build/api/v1/deployments/ "$VIEW" '{"name":"x"}'
req "create deployment bad" 422 POST /build/api/v1/deployments/ "$ADMIN" '{"name":"x","cloudProvider":"azure"}'
req "delete deployment" 200 DELETE "/api/v1/deployments/$NEWD" "$ADMIN"
req "deleted is gone" 404 GET "/api/v1/deployments/$NEWD/environments" "$ADMIN"
# ---- E14: data model, dev mode, branches, git ----
req "files list" 200 GET "/build/api/v1/deployments/$DM/data-model/files?branchName=dev-dana" "$DEV"
req "files write not dev mode" 412 PUT "/build/api/v1/deployments/$DM/data-model/files" "$DEV" '{"branchName":"main","files":[{"path":"model/x.yml","content":"cubes: []"}]}'
req "files write" 200 PUT "/build/api/v1/deployments/$DM/data-model/files" "$DEV" '{"branchName":"dev-dana","files":[{"path":"model/cubes/new.yml","content":"cubes:\n  - name: new\n"}]}'
req "files rename" 200 POST "/build/api/v1/deployments/$DM/data-model/files/rename" "$DEV" '{"branchName":"dev-dana","files":[{"fromPath":"model/cubes/new.yml","toPath":"model/cubes/newer.yml"}]}'
req "files rename missing" 404 POST "/build/api/v1/deployments/$DM/data-model/files/rename" "$DEV" '{"branchName":"dev-dana","files":[{"fromPath":"nope.yml","toPath":"x.yml"}]}'
req "files delete" 200 DELETE "/build/api/v1/deployments/$DM/data-model/files?branchName=dev-dana&paths=model/cubes/newer.yml" "$DEV"
req "validate invalid" 200 GET "/build/api/v1/deployments/$DM/data-model/validate?branchName=dev-dana" "$DEV"
chk "valid=false" '.validation.valid==false and (.validation.errors|length)>=1'
req "validate main" 200 GET "/build/api/v1/deployments/$DM/data-model/validate" "$DEV"
chk "valid=true" '.validation.valid==true'
req "file hashes" 200 GET "/build/api/v1/deployments/$DM/data-model/file-hashes" "$DEV"
req "upload start" 201 POST "/build/api/v1/deployments/$DM/data-model/upload/start" "$DEV" '{"branchName":"feature-churn"}'
UP=$(val .upload.uploadId)
req "upload file" 200 POST "/build/api/v1/deployments/$DM/data-model/upload/file" "$DEV" "{\"uploadId\":\"$UP\",\"path\":\"model/cubes/a.yml\",\"content\":\"cubes:\\n  - name: a\\n\"}"
req "upload finish" 200 POST "/build/api/v1/deployments/$DM/data-model/upload/finish" "$DEV" "{\"uploadId\":\"$UP\"}"
req "upload finish again" 409 POST "/build/api/v1/deployments/$DM/data-model/upload/finish" "$DEV" "{\"uploadId\":\"$UP\"}"
req "dev mode start" 200 POST "/build/api/v1/deployments/$DM/dev-mode" "$DEV" '{"branchName":"feature-churn"}'
req "dev mode stop" 200 DELETE "/build/api/v1/deployments/$DM/dev-mode?branchName=feature-churn" "$DEV"
req "branches" 200 GET "/build/api/v1/deployments/$DM/branches" "$DEV"
chk "branches shape" '(.items|length)>=5'
req "branch create" 201 POST "/build/api/v1/deployments/$DM/branches" "$DEV" '{"name":"smoke-branch","from":"feature-churn"}'
req "branch child" 201 POST "/build/api/v1/deployments/$DM/branches" "$DEV" '{"name":"smoke-child","from":"smoke-branch"}'
req "branch dup" 409 POST "/build/api/v1/deployments/$DM/branches" "$DEV" '{"name":"smoke-branch"}'
req "branch delete" 200 DELETE "/build/api/v1/deployments/$DM/branches?branchName=smoke-branch&removeOnUpstream=true" "$DEV"
req "branches after" 200 GET "/build/api/v1/deployments/$DM/branches?first=100" "$DEV"
chk "child re-parented" '[.items[]|select(.name=="smoke-child")|.parentBranch]==["feature-churn"]'
req "branch delete prod" 422 DELETE "/build/api/v1/deployments/$DM/branches?branchName=main" "$DEV"
req "commit" 200 POST "/build/api/v1/deployments/$DM/commit" "$DEV" '{"branchName":"dev-dana","message":"smoke"}'
req "pull" 200 POST "/build/api/v1/deployments/$DM/pull" "$DEV" '{"branchName":"dev-dana"}'
req "merge" 200 POST "/build/api/v1/deployments/$DM/merge" "$DEV" '{"branchName":"smoke-child"}'
req "merge-to-default" 200 POST "/build/api/v1/deployments/$DM/merge-to-default" "$DEV" '{"branchName":"analytics-v2"}'
req "github connect" 200 POST "/build/api/v1/deployments/$DM/github/connect" "$DEV" '{"repository":"acme-analytics/cube-model"}'
req "github status" 200 GET /api/v1/github/status "$ADMIN"
req "github installations" 200 GET /api/v1/github/installations "$ADMIN"
req "github repos" 200 GET /api/v1/github/installations/4401/repositories "$ADMIN"
req "github branches" 200 GET /api/v1/github/repositories/acme-analytics/cube-model/branches "$ADMIN"
# ---- E14: dbt ----
req "dbt start" 202 POST "/api/v1/deployments/$DM/dbt-sync" "$DEV" '{"branchName":"main","ref":"v2"}'
JOB=$(val .syncJob.id)
req "dbt get" 200 GET "/api/v1/deployments/$DM/dbt-sync/$JOB" "$DEV"
req "dbt history" 200 GET "/api/v1/deployments/$DM/dbt-sync?status=completed&trigger=api" "$DEV"
chk "dbt filter" '[.items[].status]|unique==["completed"]'
sleep 1.1
req "dbt result" 200 GET "/api/v1/deployments/$DM/dbt-sync/$JOB/result" "$DEV"
chk "dbt completed" '.syncResult.status=="completed" and .syncResult.ready==true'
req "dbt logs" 200 GET "/api/v1/deployments/$DM/dbt-sync/$JOB/logs" "$DEV"
req "dbt cancel finished" 409 DELETE "/api/v1/deployments/$DM/dbt-sync/$JOB" "$DEV"
req "dbt start 2" 202 POST "/api/v1/deployments/$DM/dbt-sync" "$DEV" ''
req "dbt cancel" 200 DELETE "/api/v1/deployments/$DM/dbt-sync/$(val .syncJob.id)" "$DEV"
chk "dbt canceled" '.syncJob.status=="canceled"'
req "dbt missing" 404 GET "/api/v1/deployments/$DM/dbt-sync/sync_nope" "$DEV"
# ---- E14: workspace extras ----
req "reports list" 200 GET "/api/v1/deployments/$DM/reports?sortBy=name&first=3" "$ADMIN"
chk "reports page" '(.items|length)==3 and ([.items[].type]|unique)==["REPORT"]'
RPT=$(val '.items[0].id')
req "reports lastViewed" 200 GET "/api/v1/deployments/$DM/reports?sortBy=lastViewedAt" "$ADMIN"
chk "reports lastViewed order" '.pageInfo==null and (.items[0].lastViewedAt!=null)'
req "reports search" 200 GET "/api/v1/deployments/$DM/reports?search=Revenue" "$ADMIN"
req "reports bad sort" 400 GET "/api/v1/deployments/$DM/reports?sortBy=size" "$ADMIN"
req "report by public id create" 201 PUT "/api/v1/deployments/$DM/reports/by-public-id/smoke_$RANDOM" "$ADMIN" "{\"name\":\"Smoke report\",\"workbookId\":$REV,\"kind\":\"table\"}"
req "report get" 200 GET "/api/v1/deployments/$DM/reports/$RPT" "$ADMIN"
req "reports for viewer" 200 GET "/api/v1/deployments/$DM/reports" "$VIEW"
RPT=$(val '.items[0].id')
req "connect workbook" 201 PUT "/api/v1/deployments/$DM/reports/$RPT/connect-workbook" "$VIEW" '{"externalWorkbookId":"xl-1","sheetName":"Sheet1","anchorCell":"B2"}'
PLC=$(val .placement.placementId)
req "connect again" 200 PUT "/api/v1/deployments/$DM/reports/$RPT/connect-workbook" "$VIEW" '{"externalWorkbookId":"xl-1","sheetName":"Sheet1","anchorCell":"b2"}'
req "connect bad cell" 422 PUT "/api/v1/deployments/$DM/reports/$RPT/connect-workbook" "$VIEW" '{"externalWorkbookId":"xl-1","sheetName":"Sheet1","anchorCell":"2B"}'
req "refresh" 200 PUT "/api/v1/deployments/$DM/reports/$RPT/refresh" "$VIEW" "{\"placementId\":\"$PLC\"}"
req "disconnect" 200 DELETE "/api/v1/deployments/$DM/reports/$RPT/connect-workbook" "$VIEW" "{\"placementId\":\"$PLC\"}"
req "disconnect again" 404 DELETE "/api/v1/deployments/$DM/reports/$RPT/connect-workbook" "$VIEW" "{\"placementId\":\"$PLC\"}"
req "folder create" 201 POST "/api/v1/deployments/$DM/folders" "$AI" "{\"name\":\"Smoke folder\",\"parentId\":$SAND}"
NF=$(val .folder.id)
req "folder create no access" 403 POST "/api/v1/deployments/$DM/folders" "$AI" "{\"name\":\"x\",\"parentId\":$MKT}"
req "bulk delete" 200 POST "/api/v1/deployments/$DM/workspace/bulk-delete" "$ADMIN" "{\"items\":[{\"type\":\"FOLDER\",\"id\":$NF},{\"type\":\"WORKBOOK\",\"id\":$CLONE},{\"type\":\"WORKBOOK\",\"id\":1},{\"type\":\"FOLDER\",\"id\":$FIN}]}"
chk "bulk delete result" '(.deleted|length)==2 and ([.failed[].error.status]|sort)==[400,404]'
req "bulk delete viewer" 200 POST "/api/v1/deployments/$DM/workspace/bulk-delete" "$VIEW" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$INV}]}"
chk "bulk delete 403" '.failed[0].error.status==403'
req "embed access get" 200 GET "/api/v1/deployments/$DM/workbooks/$REV/embed-access" "$ADMIN"
req "embed tenants" 200 GET /api/v1/embed-tenants "$ADMIN"
TEN=$(val '.items[0].id')
req "embed access put" 200 PUT "/api/v1/deployments/$DM/workbooks/$REV/embed-access" "$ADMIN" "{\"action\":\"read\",\"tenantId\":$TEN}"
chk "embed access" ".embedAccess.tenants[0].tenantId==$TEN"
req "embed access viewer" 403 PUT "/api/v1/deployments/$DM/workbooks/$REV/embed-access" "$VIEW" '{"action":"read","allEmbedUsers":true}'
req "get for public id" 200 GET "/api/v1/deployments/$DM/workbooks/$Q1" "$ADMIN"
PUB=$(val .publishedDashboard.publicId); PYR=$(jq -r '.publishedDashboard.reportSnapshots[]|select(.pythonCode!=null)|.reportId' "$LAST" | head -1)
req "embed patch" 200 PATCH "/api/v1/embed/dashboard/$PUB" "$ADMIN" '{"allowEmbed":true}'
chk "embed enabled" '.dashboard.allowEmbed==true'
req "embed patch unknown" 404 PATCH "/api/v1/embed/dashboard/dsh_nope" "$ADMIN" '{"allowEmbed":true}'
req "python run" 200 POST "/api/v1/embed/dashboard/$PUB/python-run" "$ADMIN" "{\"reportId\":$PYR,\"filters\":[]}"
# ---- E14: account resources ----
req "users" 200 GET "/api/v1/users?search=acme" "$VIEW"
req "user create" 201 POST /api/v1/users "$ADMIN" '{"email":"new.person@acme-analytics.test","firstName":"New","role":"AI BI User"}'
NU=$(val .user.id)
req "user dup" 409 POST /api/v1/users "$ADMIN" '{"email":"new.person@acme-analytics.test"}'
req "user create viewer" 403 POST /api/v1/users "$VIEW" '{"email":"v@acme.test"}'
req "user get" 200 GET "/api/v1/users/$NU" "$VIEW"
req "user update" 200 PUT "/api/v1/users/$NU" "$ADMIN" '{"role":"Developer"}'
req "user bulk" 200 POST /api/v1/users/bulk "$ADMIN" "{\"action\":\"DEACTIVATE\",\"userIds\":[$NU,999999]}"
chk "bulk users" '(.succeeded|length)==1 and .failed[0].error.status==404'
req "user attrs" 200 GET /api/v1/user-attributes/ "$ADMIN"
req "user attr create" 201 POST /api/v1/user-attributes/ "$ADMIN" '{"name":"team","type":"string"}'
req "user attr bad type" 422 POST /api/v1/user-attributes/ "$ADMIN" '{"name":"t2","type":"date"}'
req "attr values put" 200 PUT "/api/v1/user-attribute-values/$NU" "$ADMIN" '{"values":{"team":"core"}}'
req "attr values get" 200 GET "/api/v1/user-attribute-values/$NU" "$ADMIN"
req "tenant settings" 200 GET /api/v1/tenant/settings "$VIEW"
req "groups" 200 GET /api/v1/groups "$ADMIN"
req "group create" 201 POST /api/v1/groups "$ADMIN" '{"name":"Smoke group"}'
req "policies" 200 GET /api/v1/policies "$ADMIN"
req "embed tenant create" 201 POST /api/v1/embed-tenants "$ADMIN" '{"name":"Smoke tenant"}'
NT=$(val .embedTenant.id)
req "embed tenant patch" 200 PATCH "/api/v1/embed-tenants/$NT" "$ADMIN" '{"description":"d"}'
req "embed user create" 201 POST "/api/v1/embed-tenants/$NT/users" "$ADMIN" '{"email":"e@x.test"}'
NEU=$(val .embedUser.id)
req "embed group create" 201 POST "/api/v1/embed-tenants/$NT/groups" "$ADMIN" '{"name":"G"}'
NEG=$(val .embedGroup.id)
req "embed member add" 201 POST "/api/v1/embed-tenants/$NT/groups/$NEG/members" "$ADMIN" "{\"userId\":$NEU}"
req "embed members" 200 GET "/api/v1/embed-tenants/$NT/groups/$NEG/members" "$ADMIN"
req "embed tenant delete" 200 DELETE "/api/v1/embed-tenants/$NT" "$ADMIN"
req "oauth list" 200 GET /api/v1/oauth-integrations "$ADMIN"
chk "secret hidden" '(.items[0]|has("clientSecret"))==false and .items[0].secretFields==["clientSecret"]'
req "oauth create" 201 POST /api/v1/oauth-integrations "$ADMIN" '{"name":"Slack","provider":"slack","clientSecret":"x"}'
req "oauth patch" 200 PATCH "/api/v1/oauth-integrations/$(val .oauthIntegration.id)" "$ADMIN" '{"clientId":"abc"}'
req "user tokens" 200 GET /api/v1/user-oauth-tokens "$ADMIN"
req "oidc create" 201 POST /api/v1/oidc-token-configs "$ADMIN" '{"name":"Auth0","issuer":"https://x.test"}'
req "notifications" 200 GET "/api/v1/deployments/$DM/notifications" "$DEV"
req "notification create" 201 POST "/api/v1/deployments/$DM/notifications" "$AI" "{\"name\":\"Daily\",\"workbookId\":$REV,\"schedule\":\"0 9 * * *\",\"filters\":[{\"member\":\"orders.x\",\"operator\":\"is_empty\"}]}"
req "notification bad op" 422 POST "/api/v1/deployments/$DM/notifications" "$AI" "{\"name\":\"Daily2\",\"workbookId\":$REV,\"schedule\":\"0 9 * * *\",\"filters\":[{\"member\":\"orders.x\",\"operator\":\"is_empty\",\"values\":[\"a\"]}]}"
req "notification viewer" 403 POST "/api/v1/deployments/$DM/notifications" "$VIEW" "{\"name\":\"V\",\"workbookId\":$REV,\"schedule\":\"0 9 * * *\"}"
# ---- robustness ----
req "huge number" 422 PUT "/api/v1/deployments/$DM/workbooks/by-slug/$SLUG" "$ADMIN" '{"folderId":1e400}'
req "deep JSON" 400 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" "$(printf '[%.0s' $(seq 1 600))"
req "invalid utf8" 400 POST "/api/v1/deployments/$DM/workspace/bulk-move" "$ADMIN" $'{"items":"\xff"}'
{ printf '{"env_variables":[{"name":"BIG","value":"'; head -c 600000 /dev/zero | tr '\0' 'a'; printf '"}]}'; } > "$OUT/big.json"
req "too large" 413 PUT "/api/v1/deployments/$DM/env-vars" "$DEV" "" --data-binary @"$OUT/big.json" -H 'Content-Type: application/json'
# ---- check every recorded answer against the OpenAPI document ----
echo "== OpenAPI check"
if python3 "$HERE/tests/validate.py" "$OUT/spec.json" "$OUT/log"; then ok; else bad "answers do not match the OpenAPI document"; fi
if grep -q ' 50[0-9] ' "$OUT/server.log"; then bad "server logged a 5xx"; grep ' 50[0-9] ' "$OUT/server.log" | head; else ok; fi
echo "== $PASS passed, $FAIL failed ($N requests)"
[ "$FAIL" = 0 ]
