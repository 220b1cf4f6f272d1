#!/usr/bin/env bash
# Smoke test: starts the server, exercises every operation (happy and error paths), checks answers against
# the spec rules, then (when python3 + jsonschema exist) validates every logged JSON answer against /api/v1/spec.
set -u
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOG="$(mktemp -d /tmp/smoke.XXXXXX)"
"$DIR/run.sh" 0 >"$LOG/start.out" 2>"$LOG/server.err" &
SPID=$!
trap 'kill $SPID 2>/dev/null' EXIT
for _ in $(seq 1 300); do [ -s "$LOG/start.out" ] && break; sleep 0.5; done
LINE="$(head -1 "$LOG/start.out")"
[ -n "$LINE" ] || { echo "server did not start"; cat "$LOG/server.err"; exit 1; }
B=$(jq -r .baseUrl <<<"$LINE")
ADMIN=$(jq -r .tokens.admin <<<"$LINE"); DEV=$(jq -r .tokens.developer <<<"$LINE"); AIBI=$(jq -r .tokens.aiBiUser <<<"$LINE")
VIEWER=$(jq -r .tokens.viewer <<<"$LINE"); AUDITOR=$(jq -r .tokens.auditor <<<"$LINE"); SCOPED=$(jq -r .tokens.scoped <<<"$LINE")
EMBED=$(jq -r .tokens.embedCreator <<<"$LINE"); GONE=$(jq -r .tokens.deactivated <<<"$LINE")
MUT=$(jq -r .fixtures.mutableDeploymentId <<<"$LINE"); LIM=$(jq -r .fixtures.workbookLimitDeploymentId <<<"$LINE")
SCP=$(jq -r .fixtures.scopedDeploymentId <<<"$LINE")
[ "$(jq -r .token <<<"$LINE")" = "$ADMIN" ] || echo "WARN: token != tokens.admin"
PASS=0; FAIL=0; N=0
ok() { PASS=$((PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
# req TOKEN METHOD PATH [JSON-BODY]  -> $ST status, $R body file, $H header file
req() {
  N=$((N + 1)); R="$LOG/r$N.body"; H="$LOG/r$N.hdr"
  local tok="$1" m="$2" p="$3"; shift 3
  local args=(-s -o "$R" -D "$H" -w '%{http_code}' -X "$m" "$B$p")
  [ "$tok" != "-" ] && args+=(-H "Authorization: Bearer $tok")
  if [ $# -gt 0 ]; then args+=(-H 'Content-Type: application/json' --data-binary "$1"); fi
  ST=$(curl "${args[@]}")
  printf '%s\t%s\t%s\t%s\n' "$m" "${p%%\?*}" "$ST" "$N" >>"$LOG/index"
}
expect() { # expect STATUS description
  if [ "$ST" = "$1" ]; then ok; else bad "$2: expected $1, got $ST: $(head -c 300 "$R")"; fi
}
jqt() { # jqt 'filter' description  (filter must be truthy)
  if jq -e "$1" "$R" >/dev/null 2>&1; then ok; else bad "$2: jq '$1' failed on $(head -c 300 "$R")"; fi
}
hdr() { grep -i "^$1:" "$H" | head -1 | cut -d: -f2- | tr -d '\r' | sed 's/^ //'; }
D="/api/v1/deployments"; BD="/build/api/v1/deployments"

echo "== auth"
req - GET "$D"; expect 401 "no credentials"; [ -n "$(hdr www-authenticate)" ] && ok || bad "401 without WWW-Authenticate"
jqt '.error|type=="string"' "error body has string error"
req "nonsense" GET "$D"; expect 401 "unknown key"
N=$((N + 1)); ST=$(curl -s -o "$LOG/x.body" -w '%{http_code}' "$B$D" -H "Authorization: Basic abc"); [ "$ST" = 401 ] && ok || bad "basic scheme $ST"
ST=$(curl -s -o /dev/null -w '%{http_code}' "$B$D" -H "Authorization: Api-Key $ADMIN"); [ "$ST" = 200 ] && ok || bad "Api-Key scheme $ST"
ST=$(curl -s -o /dev/null -w '%{http_code}' "$B$D" -H "authorization: bearer $ADMIN"); [ "$ST" = 200 ] && ok || bad "lower-case bearer $ST"
req "$GONE" GET "$D"; expect 401 "deactivated key"
req "$ADMIN" GET "/api/v1/nope"; expect 404 "unknown route"
req "$ADMIN" PATCH "$D"; expect 405 "wrong method"; [ -n "$(hdr allow)" ] && ok || bad "405 without Allow"
req "$ADMIN" GET "/api/v1/regions"; expect 307 "regions without slash redirects"; [ "$(hdr location)" = "/api/v1/regions/" ] && ok || bad "redirect location $(hdr location)"

echo "== E1 deployments"
req "$ADMIN" GET "$D"; expect 200 "E1"
jqt '.data.deployments|length==6' "admin sees 6 deployments"
jqt '.pagination.offset==0 and .pagination.limit==20 and .pagination.total==6' "E1 pagination defaults"
jqt '[.data.deployments[]|(.id|type=="string") and (.name|type=="string") and (.created_at|test("^\\d{4}-\\d\\d-\\d\\dT"))]|all' "deployment fields"
req "$ADMIN" GET "$D?offset=2&limit=2"; expect 200 "E1 page 2"; jqt '.data.deployments|length==2' "E1 page size"
req "$ADMIN" GET "$D?offset=6&limit=2"; jqt '.data.deployments|length==0' "E1 past end"
req "$ADMIN" GET "$D?limit=0"; expect 400 "E1 limit=0"
req "$ADMIN" GET "$D?offset=-1"; expect 400 "E1 offset=-1"
req "$ADMIN" GET "$D?limit=abc"; expect 400 "E1 limit=abc"
req "$SCOPED" GET "$D"; expect 200 "scoped E1"; jqt ".data.deployments|length==1 and .[0].id==\"$SCP\"" "scoped sees only its deployment"
req "$DEV" GET "$D"; jqt "[.data.deployments[].id]|index(\"$SCP\")==null" "developer does not see scoped deployment"

echo "== E2 environments"
req "$VIEWER" GET "$D/$MUT/environments"; expect 200 "E2"
jqt '(.items|length)>=4 and (.pageInfo|type=="object") and (.data|type=="array")' "E2 shape"
jqt '[.items[]|(.type|IN("production","staging","development")) and (.api_credentials|type=="array") and (.id|type=="string")]|all' "E2 env fields"
jqt '[.items[].type]|index("staging")!=null' "staging branch listed as staging"
req "$VIEWER" GET "$D/$MUT/environments?type=production"; jqt '[.items[].type]|unique==["production"]' "type filter"
req "$VIEWER" GET "$D/$MUT/environments?type=bogus"; expect 400 "bad type"
req "$VIEWER" GET "$D/$MUT/environments?first=2"; jqt '(.items|length)==2 and .pageInfo.hasNextPage' "E2 first=2"
C=$(jq -r .pageInfo.endCursor "$R"); req "$VIEWER" GET "$D/$MUT/environments?first=2&after=$C"; jqt '(.items|length)>=1 and .pageInfo.hasPreviousPage' "E2 page 2"
req "$VIEWER" GET "$D/$MUT/environments?offset=1&limit=1"; jqt '(.data|length)==1 and .pagination.offset==1' "E2 offset/limit slices data"
req "$VIEWER" GET "$D/$MUT/environments?limit=0"; expect 200 "E2 limit=0 allowed"
req "$VIEWER" GET "$D/$MUT/environments?first=0"; expect 400 "E2 first=0"
req "$VIEWER" GET "$D/$MUT/environments?after=garbage"; expect 400 "E2 bad cursor"
req "$VIEWER" GET "$D/999999/environments"; expect 404 "E2 missing deployment"
req "$VIEWER" GET "$D/$SCP/environments"; expect 403 "E2 deployment not visible"
req "$SCOPED" GET "$D/$MUT/environments"; expect 403 "scoped key on another deployment"

echo "== E3 metadata token"
req "$ADMIN" GET "$D/$MUT/environments?type=production"; ENV=$(jq -r '.items[0].id' "$R")
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{"security_context":{"tenant":"acme"},"expires_in":3600}'; expect 200 "E3"
jqt '.data.token|split(".")|length==3' "E3 JWT"
CA=$(jq -r .data.created_at "$R"); EA=$(jq -r .data.expires_at "$R")
[ $(( $(date -d "$EA" +%s) - $(date -d "$CA" +%s) )) = 3600 ] && ok || bad "E3 expires_at != created_at + 3600"
JWT=$(jq -r .data.token "$R")
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{"security_context":{}}'; expect 200 "E3 default ttl"
CA=$(jq -r .data.created_at "$R"); EA=$(jq -r .data.expires_at "$R")
[ $(( $(date -d "$EA" +%s) - $(date -d "$CA" +%s) )) = 86400 ] && ok || bad "E3 default 86400"
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{}'; expect 400 "E3 missing security_context"
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{"security_context":"x"}'; expect 400 "E3 security_context not object"
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{"security_context":{},"expires_in":-5}'; expect 422 "E3 negative ttl"
req "$DEV" POST "$D/$MUT/environments/nope/tokens-for-meta-sync" '{"security_context":{}}'; expect 404 "E3 unknown env"
req "$DEV" POST "$D/$MUT/environments/$ENV/tokens-for-meta-sync" '{"security_context":'; expect 400 "E3 malformed JSON"
req "$JWT" GET "$D"; expect 403 "metadata JWT is not an API key"

echo "== E4 staging toggle"
req "$DEV" GET "$BD/$MUT/branches?first=50"; expect 200 "branches list"
jqt '(.items|length)>=6 and (.count|type=="number")' "branches shape"
SHARED_ID=$(jq -r '.items[]|select(.name=="analytics-v2")|.id' "$R")
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" "{\"enabled\":true,\"branchId\":$SHARED_ID}"; expect 200 "E4 enable by id"
jqt '.data.isStagingEnvironmentEnabled==true and .data.name=="analytics-v2" and (.data.id|type=="number")' "E4 result"
jqt '.data|has("parentBranch") and has("lastHash")' "E4 branch fields"
req "$VIEWER" GET "$D/$MUT/environments?type=staging"; jqt '[.items[].branch]|index("analytics-v2")!=null' "enabled branch appears as staging"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":false,"branchName":"analytics-v2"}'; expect 200 "E4 disable by name"
jqt '.data.isStagingEnvironmentEnabled==false' "E4 disabled"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":true,"branchName":"main"}'; expect 400 "E4 production rejected"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":true,"branchName":"dev-patel"}'; expect 400 "E4 personal rejected"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":true,"branchName":"ghost"}'; expect 404 "E4 unknown"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"branchName":"analytics-v2"}'; expect 400 "E4 missing enabled"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":"yes","branchName":"analytics-v2"}'; expect 400 "E4 enabled not bool"
req "$DEV" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":true}'; expect 400 "E4 no branch"
req "$VIEWER" PUT "$BD/$MUT/branches/staging-environment" '{"enabled":true,"branchName":"analytics-v2"}'; expect 403 "E4 viewer"

echo "== E5/E6 versions and deployment update"
req "$DEV" GET "$D/$MUT/versions"; expect 200 "E5"
jqt '(.data|length)>=3 and ([.data[]|.isCurrent]|map(select(.))|length)==1' "E5 one current"
jqt '[.data[]|(.releaseChannelVersion|type=="string") and (.version|test("^\\d+\\.\\d+\\.\\d+$")) and (.isLatestInChannel|type=="boolean")]|all' "E5 fields"
NONHEAD=$(jq -r '[.data[]|select(.isLatestInChannel==false and .isCurrent==false)][0].version' "$R")
HEAD_REF=$(jq -r '[.data[]|select(.isLatestInChannel and .releaseChannel=="latest")][0].releaseChannelVersion' "$R")
req "$DEV" PUT "$D/$MUT" "{\"releaseChannelVersion\":\"v$NONHEAD\"}"; expect 200 "E6 v-prefixed version"
jqt ".data.version==\"$NONHEAD\" and .data.releaseChannelVersionHold==true" "E6 non-head sets hold"
req "$DEV" GET "$D/$MUT/versions"; jqt "[.data[]|select(.isCurrent)][0].version==\"$NONHEAD\"" "E5 reflects update"
req "$DEV" PUT "$D/$MUT" "{\"releaseChannelVersion\":\"$HEAD_REF\"}"; expect 200 "E6 full reference"
req "$DEV" PUT "$D/$MUT" '{"releaseChannelVersion":"9.9.9"}'; expect 400 "E6 unknown version"
req "$DEV" PUT "$D/$MUT" '{"releaseChannelVersion":"banana"}'; expect 400 "E6 junk version"
req "$DEV" PUT "$D/$MUT" '{"releaseChannel":"release"}'; expect 200 "E6 channel only"
jqt '.data.releaseChannel=="release" and .data.releaseChannelVersionHold==false' "E6 channel moves to its latest"
req "$DEV" GET "$D/$MUT/versions"; jqt '[.data[]|select(.isCurrent)][0].isLatestInChannel==true' "latest of channel is current"
req "$DEV" PUT "$D/$MUT" '{"templateVariables":{"warehouse":"BIG_WH","newVar":"1"}}'; expect 200 "E6 templateVariables"
jqt '.data.templateVariables.warehouse=="BIG_WH" and .data.templateVariables.schema=="public" and .data.templateVariables.newVar=="1"' "templateVariables merged"
req "$DEV" PUT "$D/$MUT" '{"region":"aws-eu-central-1","cloudProvider":"aws","deployMode":"cli","creationMethod":"github"}'; expect 200 "E6 other fields"
req "$DEV" PUT "$D/$MUT" '{"cloudProvider":"<hosted>"}'; expect 200 "E6 hosted alias"; jqt '.data.cloudProvider=="saas"' "hosted stored as saas"
req "$DEV" PUT "$D/$MUT" '{"image":"evil:latest"}'; expect 403 "E6 image cannot be set"
req "$DEV" PUT "$D/$MUT" '{"releaseChannel":"nightly"}'; expect 422 "E6 unknown channel"
req "$DEV" PUT "$D/$MUT" '{"templateVariables":[1]}'; expect 400 "E6 templateVariables not object"
req "$VIEWER" PUT "$D/$MUT" '{"template":"x"}'; expect 403 "E6 viewer"
req "$DEV" PUT "$D/424242" '{"template":"x"}'; expect 404 "E6 missing deployment"
req "$DEV" PUT "$D/$MUT" '[]'; expect 400 "E6 array body"

echo "== E7 audit export"
req "$ADMIN" GET "/api/v1/audit-logs/export"; expect 200 "E7 admin"
case "$(hdr content-type)" in text/csv*) ok ;; *) bad "E7 content-type $(hdr content-type)" ;; esac
case "$(hdr content-disposition)" in attachment*) ok ;; *) bad "E7 disposition" ;; esac
head -1 "$R" | grep -q '"User Email"' && ok || bad "E7 header row"
[ "$(wc -l <"$R")" -gt 20 ] && ok || bad "E7 rows"
grep -q '\[HIDDEN\]' "$R" && ok || bad "E7 sensitive values hidden"
req "$AUDITOR" GET "/api/v1/audit-logs/export?eventName=Logged%20in&start=2025-01-01&end=2025-12-31"; expect 200 "E7 auditor filtered"
awk -F'","' 'NR>1 && $3!="Logged in"{bad=1} END{exit bad}' "$R" && ok || bad "E7 eventName filter"
req "$AUDITOR" GET "/api/v1/audit-logs/export?userEmail=DEV.PATEL@acme.example"; awk -F'","' 'NR>1 && $2!="dev.patel@acme.example"{bad=1} END{exit bad}' "$R" && ok || bad "E7 userEmail filter"
req "$AUDITOR" GET "/api/v1/audit-logs/export?search=bad%20password"; [ "$(wc -l <"$R")" -ge 2 ] && ok || bad "E7 search"
req "$DEV" GET "/api/v1/audit-logs/export"; expect 403 "E7 developer lacks AuditLogManage"
req "$VIEWER" GET "/api/v1/audit-logs/export"; expect 403 "E7 viewer"
req "$AUDITOR" GET "/api/v1/audit-logs/export?start=yesterday"; expect 400 "E7 bad date"
req "$AUDITOR" GET "/api/v1/audit-logs/export?start=2025-05-01&end=2025-01-01"; expect 422 "E7 start after end"

echo "== E8/E9 workbooks"
req "$ADMIN" GET "$D/$MUT/workbooks?first=5"; expect 200 "E8"
jqt '(.items|length)==5 and (.data|length)==5 and .count>=12 and .pageInfo.hasNextPage' "E8 page 1"
jqt '[.items[]|.type=="WORKBOOK" and (.id|type=="number") and (.deploymentId|type=="number") and (.meta|type=="object") and (.calculatedFields|type=="object")]|all' "E8 items"
TOTAL=$(jq .count "$R"); SEEN=$(jq '.items|length' "$R"); C=$(jq -r .pageInfo.endCursor "$R"); PAGES=1
while [ "$C" != "null" ]; do
  req "$ADMIN" GET "$D/$MUT/workbooks?first=5&after=$C"; PAGES=$((PAGES + 1))
  SEEN=$((SEEN + $(jq '.items|length' "$R"))); HN=$(jq .pageInfo.hasNextPage "$R"); C=$(jq -r .pageInfo.endCursor "$R"); [ "$HN" = true ] || break
done
[ "$SEEN" = "$TOTAL" ] && [ "$PAGES" -ge 3 ] && ok || bad "E8 cursor walk saw $SEEN of $TOTAL in $PAGES pages"
req "$ADMIN" GET "$D/$MUT/workbooks?first=100"; WBS="$R"
REV=$(jq '.items[]|select(.name=="Revenue Overview")|.id' "$WBS"); CAMP=$(jq '.items[]|select(.name=="Campaign Performance")|.id' "$WBS")
BUDGET=$(jq '.items[]|select(.name=="Budget 2025")|.id' "$WBS"); EXEC=$(jq '.items[]|select(.name=="Executive KPIs")|.id' "$WBS")
SALES=$(jq '.items[]|select(.name=="Sales Template")|.id' "$WBS"); SUPPORT=$(jq '.items[]|select(.name=="Support Template")|.id' "$WBS")
Q1=$(jq '.items[]|select(.name=="Q1 Funnel")|.id' "$WBS")
jqt '.items[]|select(.name=="Q1 Funnel")|(.folderPath|length)==3 and (.folderPath[0].name=="Marketing")' "folderPath root-first ancestors"
jqt "[.items[]|select(.id==$REV)][0]|.isFavorite==true and .slug==\"revenue-overview\" and (.publishedDashboard.reportSnapshots|length)==3" "Revenue Overview record"
req "$VIEWER" GET "$D/$MUT/workbooks?first=100"; jqt "[.items[].id]|index($EXEC)==null" "viewer cannot see restricted workbook"
FOLDER_CAMP=$(jq '.items[]|select(.name=="Campaign Performance")|.folderId' "$WBS")
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=$FOLDER_CAMP"; jqt "[.items[].id]==[$CAMP]" "E8 folderId filter"
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=0"; jqt '[.items[]|.folderId==null]|all and length>0' "E8 root filter"
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=null"; expect 200 "E8 folderId=null"
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=-3"; expect 400 "E8 negative folderId"
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=12345"; expect 404 "E8 unknown folder"
req "$ADMIN" GET "$D/$MUT/workbooks?first=0"; expect 400 "E8 first=0"
req "$ADMIN" GET "$D/999/workbooks"; expect 404 "E8 missing deployment"
req "$ADMIN" GET "$D/$MUT/workbooks/$REV"; expect 200 "E9"; jqt ".id==$REV and .type==\"WORKBOOK\" and (.user.email|type==\"string\")" "E9 record"
req "$ADMIN" GET "$D/$LIM/workbooks/$REV"; expect 404 "E9 other deployment"
req "$ADMIN" GET "$D/$MUT/workbooks/1"; expect 404 "E9 missing"
req "$ADMIN" GET "$D/$MUT/workbooks/abc"; expect 404 "E9 non-numeric id"
req "$VIEWER" GET "$D/$MUT/workbooks/$EXEC"; expect 403 "E9 unreadable"
req "$ADMIN" POST "$D/$MUT/workbooks" '{"name":"Smoke Created"}'; expect 201 "create workbook"; CREATED=$(jq .id "$R")
req "$VIEWER" POST "$D/$MUT/workbooks" '{"name":"nope"}'; expect 403 "viewer cannot create"

echo "== E10 clone"
req "$ADMIN" POST "$D/$MUT/workbooks/$REV/duplicate"; expect 200 "E10 clone"
jqt '.name=="Copy of Revenue Overview" and .folderId==null and .publishedDashboard.allowEmbed==false and .slug==null' "clone basics"
CLONE="$R"; CLONE_ID=$(jq .id "$R")
req "$ADMIN" GET "$D/$MUT/workbooks/$REV"; SRC="$R"
jq -e -n --slurpfile s "$SRC" --slurpfile c "$CLONE" '
  def refs(x): [(x // {}).widgets // [] | .[] | (.config // {}).reportId // empty];
  ([$s[0].publishedDashboard.reportSnapshots[].reportId]) as $srep
  | ([$c[0].publishedDashboard.reportSnapshots[].reportId]) as $crep
  | ($crep|length) == ($srep|length)
    and ([$crep[] | select(. as $x | $srep | index($x))] | length) == 0
    and ([refs($c[0].publishedDashboard.config)[] | select(. as $x | $crep | index($x) | not)] | length) == 0
    and ([refs($c[0].dashboardDraft)[] | select(. as $x | $srep | index($x))] | length) == 0
    and $c[0].publishedDashboard.id != $s[0].publishedDashboard.id' >/dev/null && ok || bad "clone report references not remapped"
req "$ADMIN" GET "$D/$MUT/workbooks/$REV"; jqt '.publishedDashboard.allowEmbed==true' "source unchanged"
req "$DEV" POST "$D/$MUT/workbooks/$CAMP/duplicate" '{}'; expect 200 "E10 developer clone in edit folder"; jqt ".folderId==$FOLDER_CAMP" "clone placed in source folder"
req "$AIBI" POST "$D/$MUT/workbooks/$BUDGET/duplicate"; expect 200 "E10 aibi clone from read-only folder"; jqt '.folderId==null' "read-only source folder -> root"
jqt '.user.email=="aiko.tanaka@acme.example"' "caller owns clone"
req "$VIEWER" POST "$D/$MUT/workbooks/$REV/duplicate"; expect 403 "E10 viewer"
req "$ADMIN" POST "$D/$MUT/workbooks/424242/duplicate"; expect 404 "E10 missing"
req "$ADMIN" POST "$D/$LIM/workbooks/$REV/duplicate"; expect 404 "E10 other deployment"
req "$ADMIN" POST "$D/$MUT/workbooks/$REV/duplicate" '{"shared":"yes"}'; expect 400 "E10 shared not boolean"
req "$ADMIN" POST "$D/$MUT/workbooks/$REV/duplicate" '{"shared":true}'; expect 403 "E10 shared by non-creator"
req "$EMBED" POST "$D/$MUT/workbooks/$SALES/duplicate" '{"shared":true}'; expect 200 "E10 shared clone"
jqt '.folderId==null and .publishedDashboard.fromSharedWorkspace==true and .publishedDashboard.allowEmbed==false and (.publishedDashboard.reportSnapshots|length)==3 and (.dashboardDraft!=null)' "shared clone shape"
req "$EMBED" POST "$D/$MUT/workbooks/$SUPPORT/duplicate" '{"shared":true}'; expect 400 "E10 shared without published dashboard"
req "$ADMIN" GET "$D/$LIM/workbooks"; LIMWB=$(jq '.items[0].id' "$R")
req "$ADMIN" POST "$D/$LIM/workbooks/$LIMWB/duplicate"; expect 400 "E10 workbook limit"

echo "== E11 upsert by slug"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/%20Smoke-Slug%20" '{"name":"Smoke slug","meta":{"a":1,"nested":{"x":1}}}'; expect 200 "E11 create"
jqt '.slug=="smoke-slug" and .name=="Smoke slug" and .meta.a==1' "E11 created"; SLUGID=$(jq .id "$R"); U1=$(jq -r .updatedAt "$R")
sleep 1
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/SMOKE-SLUG" '{"name":"Smoke slug","meta":{"a":1,"nested":{"x":1}}}'; expect 200 "E11 re-apply"
jqt ".id==$SLUGID and .updatedAt==\"$U1\"" "E11 idempotent"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"meta":{"b":2,"nested":{"y":2}}}'; expect 200 "E11 update meta"
jqt '.meta.a==1 and .meta.b==2 and .meta.nested.x==1 and .meta.nested.y==2 and .name=="Smoke slug"' "E11 meta merged, name kept"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"meta":{"dashboardDraft":{"widgets":[{"id":"t","type":"TABS_CONTAINER","position":{"x":0,"y":0,"w":4,"h":2}}]}}}'; expect 200 "E11 draft with TABS_CONTAINER"
jqt '.dashboardDraft.widgets[0].type=="CONTAINER" and .dashboardDraft.widgets[0].config.layout=="tabs"' "TABS_CONTAINER converted"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"meta":{"dashboardDraft":{"widgets":[{"id":"t","type":"NOPE","position":{"x":0,"y":0,"w":4,"h":2}}]}}}'; expect 422 "E11 invalid draft"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"meta":{"dashboardDraft":{"app":{"entry":"'"$(printf 'a%.0s' $(seq 1 300))"'"}}}}'; expect 422 "E11 app.entry > 255"
req "$VIEWER" PUT "$D/$MUT/workbooks/by-slug/viewer-slug" '{"name":"x"}'; expect 403 "E11 viewer create"
req "$VIEWER" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"name":"x"}'; expect 403 "E11 viewer update"
req "$AIBI" PUT "$D/$MUT/workbooks/by-slug/revenue-overview" "{\"folderId\":$FOLDER_CAMP}"; expect 403 "E11 move needs manage"
req "$ADMIN" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" "{\"folderId\":$FOLDER_CAMP}"; expect 200 "E11 admin moves"; jqt ".folderId==$FOLDER_CAMP" "E11 moved"
req "$ADMIN" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"name":5}'; expect 400 "E11 bad name type"
req "$ADMIN" PUT "$D/$MUT/workbooks/by-slug/smoke-slug" '{"meta":"x"}'; expect 400 "E11 meta not object"
req "$ADMIN" PUT "$D/777777/workbooks/by-slug/x" '{"name":"x"}'; expect 404 "E11 missing deployment"
req "$ADMIN" PUT "$D/$LIM/workbooks/by-slug/over-limit" '{"name":"x"}'; expect 400 "E11 create at workbook limit"
# the race: concurrent creators of one slug -> one 200, others 409 upsert_branch_changed
RP=()
for i in 1 2 3 4; do
  curl -s -o "$LOG/race$i.body" -w '%{http_code}\n' -X PUT "$B$D/$MUT/workbooks/by-slug/race-slug" -H "Authorization: Bearer $ADMIN" \
    -H 'Content-Type: application/json' -d '{"name":"Race"}' >"$LOG/race$i.code" &
  RP+=($!)
done
for p in "${RP[@]}"; do wait "$p"; done
C200=$(cat "$LOG"/race*.code | grep -c 200); C409=$(cat "$LOG"/race*.code | grep -c 409)
[ "$C200" = 1 ] && [ "$C409" = 3 ] && ok || bad "race: $C200 x 200, $C409 x 409"
for i in 1 2 3 4; do if grep -q 409 "$LOG/race$i.code"; then jq -e '.code=="upsert_branch_changed"' "$LOG/race$i.body" >/dev/null && ok || bad "409 code"; fi; done

echo "== E12 bulk move"
req "$ADMIN" GET "$D/$MUT/folders?first=50"; FOLDERS="$R"
MKT=$(jq '.items[]|select(.name=="Marketing")|.id' "$FOLDERS"); FIN=$(jq '.items[]|select(.name=="Finance")|.id' "$FOLDERS"); ARCH=$(jq '.items[]|select(.name=="Archive")|.id' "$FOLDERS")
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$CREATED},{\"type\":\"WORKBOOK\",\"id\":$CREATED},{\"type\":\"FOLDER\",\"id\":$MKT},{\"type\":\"WORKBOOK\",\"id\":1},{\"type\":\"REPORT\",\"id\":$CREATED}],\"folderId\":$ARCH}"
expect 200 "E12"; jqt "(.moved|length)==2 and .moved[0].id==$CREATED and .moved[0].folderId==$ARCH and .moved[1].id==$MKT and .moved[1].parentId==$ARCH" "E12 moved in order (duplicates collapsed)"
jqt '[.failed[]|.error.status]|sort==[404,404]' "E12 failures"
req "$ADMIN" GET "$D/$MUT/workbooks/$Q1"; jqt '(.folderPath|length)==4 and .folderPath[0].name=="Archive"' "moved folder subtree follows"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" "{\"items\":[{\"type\":\"FOLDER\",\"id\":$MKT}],\"folderId\":null}"; jqt '.moved[0].parentId==null' "folder back to root"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" "{\"items\":[{\"type\":\"FOLDER\",\"id\":$MKT}],\"folderId\":$FOLDER_CAMP}"; jqt '.failed[0].error.status==400 and (.moved|length)==0' "E12 folder into descendant -> 400"
req "$AIBI" POST "$D/$MUT/workspace/bulk-move" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$REV}],\"folderId\":null}"; jqt '.failed[0].error.status==403' "E12 no access -> 403"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$CREATED}],\"folderId\":null}"; jqt '.moved[0].folderId==null and (.failed|length)==0' "E12 to root"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" '{"items":[]}'; expect 400 "E12 empty items"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" '{"items":[{"type":"SHEET","id":1}]}'; expect 422 "E12 bad type"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" '{"folderId":null}'; expect 400 "E12 missing items"
BIG=$(jq -nc '{items:[range(101)|{type:"WORKBOOK",id:.}]}')
req "$ADMIN" POST "$D/$MUT/workspace/bulk-move" "$BIG"; expect 400 "E12 > 100 items"

echo "== E13 env vars"
req "$DEV" GET "$D/$MUT/env-vars?first=5"; expect 200 "E13"
jqt '(.items|length)==5 and .pageInfo.hasNextPage and (.data|length)==5' "E13 page"
ALL=0; C=""; for _ in 1 2 3 4 5; do
  req "$DEV" GET "$D/$MUT/env-vars?first=5${C:+&after=$C}"; ALL=$((ALL + $(jq '.items|length' "$R"))); C=$(jq -r .pageInfo.endCursor "$R"); [ "$(jq .pageInfo.hasNextPage "$R")" = true ] || break
done
[ "$ALL" -ge 16 ] && ok || bad "E13 walk saw $ALL"
req "$DEV" GET "$D/$MUT/env-vars?first=75"; jqt '[.items[]|select(.name|test("PASS|SECRET|TOKEN|KEY|CREDENTIAL"))|.value=="[ENCRYPTED]"]|all' "secrets masked"
jqt '[.items[]|select(.name=="CUBEJS_DB_HOST")][0].value=="db.internal.acme.example"' "plain values shown"
req "$DEV" PUT "$D/$MUT/env-vars" '{"env_variables":[{"name":"SMOKE_VAR","value":"1"},{"name":"SMOKE_API_KEY","value":"k"}]}'; expect 200 "PUT env-vars"
jqt '[.items[]|select(.name=="SMOKE_VAR")][0].value=="1" and [.items[]|select(.name=="SMOKE_API_KEY")][0].value=="[ENCRYPTED]"' "PUT env-vars result"
req "$DEV" PUT "$D/$MUT/env-vars" '{"env_variables":[{"name":"X","value":"[ENCRYPTED]"}]}'; expect 422 "placeholder rejected"
req "$DEV" PUT "$D/$MUT/env-vars" '{"env_variables":[{"name":"1BAD","value":"x"}]}'; expect 422 "bad name"
req "$DEV" PUT "$D/$MUT/env-vars" '{"vars":[]}'; expect 400 "missing env_variables"
req "$VIEWER" GET "$D/$MUT/env-vars"; expect 403 "viewer env vars"

echo "== deployment-level E14"
req "$VIEWER" GET "$D/$MUT/settings"; expect 200 "settings"; jqt '.data.id=="'"$MUT"'" and (.data.templateVariables|has("apiSecretKey")|not)' "settings exclude secrets"
req "$DEV" GET "$D/$MUT/build-status?branchName=main"; expect 200 "build-status"; jqt '.data.status|IN("pending","building","deployed","error")' "build status value"
req "$DEV" GET "$D/$MUT/build-status?branchName=ghost"; expect 404 "build-status unknown branch"
req "$DEV" GET "$D/$MUT/logs?source=dev&container=MAIN"; expect 200 "logs"; jqt '[.items[]|.source=="dev" and .container=="MAIN"]|all' "logs filter"
req "$DEV" GET "$D/$MUT/logs?container=bogus"; expect 400 "logs bad container"
req "$DEV" GET "$D/$MUT/pods"; expect 200 "pods"; jqt '(.items|length)>0' "pods list"
req "$DEV" POST "$D/48277/creation-step/advance"; expect 200 "advance"; jqt '.data.stepIndex==2' "advanced"
req "$DEV" POST "$D/48277/creation-step/reset"; expect 200 "reset"; jqt '.data.stepIndex==0' "reset to first"
req "$DEV" POST "$D/$MUT/creation-step/advance"; expect 400 "advance past done"
req "$VIEWER" GET "/api/v1/regions/"; expect 200 "regions"; jqt '(.items|length)==9 and .pageInfo.hasNextPage' "regions paginated"
req "$DEV" POST "$BD/" '{"name":"Smoke Deployment","cloudProvider":"hosted","creationMethod":"upload","deployMode":"cli"}'; expect 201 "create deployment"
NEWDEP=$(jq -r .id "$R"); jqt '.cloudProvider=="saas" and .creationMethod=="upload"' "created deployment"
req "$DEV" POST "$BD/" '{"cloudProvider":"aws"}'; expect 400 "create deployment without name"
req "$SCOPED" POST "$BD/" '{"name":"x"}'; expect 403 "scoped cannot create deployments"
req "$DEV" DELETE "$D/$NEWDEP"; expect 403 "developer cannot delete deployment"
req "$ADMIN" DELETE "$D/$NEWDEP"; expect 202 "delete deployment"
req "$ADMIN" GET "$D/$NEWDEP/settings"; expect 404 "deleted deployment gone"

echo "== build API"
req "$DEV" POST "$BD/$MUT/branches" '{"name":"smoke-branch","from":"main"}'; expect 201 "create branch"
req "$DEV" POST "$BD/$MUT/branches" '{"name":"smoke-branch"}'; expect 409 "duplicate branch"
req "$DEV" POST "$BD/$MUT/branches" '{"name":"-bad name"}'; expect 422 "bad branch name"
req "$DEV" POST "$BD/$MUT/branches" '{"name":"smoke-child","from":"smoke-branch"}'; expect 201 "child branch"
req "$DEV" GET "$BD/$MUT/data-model/files?branchName=smoke-branch&first=4"; expect 200 "files list"; jqt '(.items|length)==4 and .pageInfo.hasNextPage' "files paginated"
req "$DEV" PUT "$BD/$MUT/data-model/files" '{"branchName":"smoke-branch","files":[{"path":"model/cubes/x.yml","content":"cubes: []\n"}]}'; expect 423 "write outside dev mode"
req "$DEV" POST "$BD/$MUT/dev-mode" '{"branchName":"smoke-branch"}'; expect 200 "start dev mode"; jqt '.devMode==true' "dev mode on"
req "$DEV" PUT "$BD/$MUT/data-model/files" '{"branchName":"smoke-branch","files":[{"path":"model/cubes/x.yml","content":"cubes:\n  - name: x\n"},{"path":"model/cubes/bad.yml","content":"oops: 1\n"}]}'; expect 200 "write files"
req "$DEV" PUT "$BD/$MUT/data-model/files" '{"branchName":"smoke-branch","files":[{"path":"../etc/passwd","content":"x"}]}'; expect 422 "path traversal"
req "$DEV" GET "$BD/$MUT/data-model/validate?branchName=smoke-branch"; expect 200 "validate"; jqt '.valid==false and (.errors|length)>=1' "compile errors reported with 200"
req "$DEV" POST "$BD/$MUT/data-model/files/rename" '{"branchName":"smoke-branch","renames":[{"oldPath":"model/cubes/bad.yml","newPath":"model/cubes/bad2.yml"}]}'; expect 200 "rename"
req "$DEV" POST "$BD/$MUT/data-model/files/rename" '{"branchName":"smoke-branch","renames":[{"oldPath":"model/cubes/x.yml","newPath":"model/cubes/orders.yml"}]}'; expect 409 "rename onto existing"
req "$DEV" POST "$BD/$MUT/data-model/files/rename" '{"branchName":"smoke-branch","renames":[{"oldPath":"nope.yml","newPath":"a.yml"}]}'; expect 404 "rename missing"
req "$DEV" DELETE "$BD/$MUT/data-model/files?branchName=smoke-branch&path=model/cubes/bad2.yml"; expect 200 "delete file"
req "$DEV" DELETE "$BD/$MUT/data-model/files?branchName=smoke-branch&path=model/cubes/none.yml"; expect 404 "delete missing file"
req "$DEV" GET "$BD/$MUT/data-model/validate?branchName=smoke-branch"; jqt '.valid==true' "valid after fix"
req "$DEV" GET "$BD/$MUT/data-model/file-hashes?branchName=smoke-branch"; expect 200 "file hashes"; jqt '[.items[]|.hash|test("^[0-9a-f]{64}$")]|all' "sha256 hashes"
req "$DEV" POST "$BD/$MUT/merge" '{"branchName":"smoke-branch"}'; expect 409 "merge with uncommitted changes"
req "$DEV" POST "$BD/$MUT/commit" '{"branchName":"smoke-branch","message":"add x"}'; expect 200 "commit"; jqt '.committed==true' "committed"
req "$DEV" POST "$BD/$MUT/commit" '{"branchName":"smoke-branch"}'; jqt '.committed==false' "nothing to commit"
req "$DEV" POST "$BD/$MUT/pull" '{"branchName":"smoke-child"}'; expect 200 "pull"; jqt '.updatedFiles>=1' "pull brought parent changes"
req "$DEV" POST "$BD/$MUT/merge" '{"branchName":"smoke-branch"}'; expect 200 "merge into parent"; jqt '.target=="main"' "merge target default parent"
req "$DEV" POST "$BD/$MUT/merge-to-default" '{"branchName":"smoke-child"}'; expect 200 "merge-to-default"
req "$DEV" DELETE "$BD/$MUT/dev-mode?branchName=smoke-branch"; expect 200 "stop dev mode"; jqt '.devMode==false' "dev mode off"
req "$DEV" DELETE "$BD/$MUT/branches?branchName=smoke-branch&removeOnUpstream=true"; expect 200 "delete branch"
req "$DEV" GET "$BD/$MUT/branches?first=75"; jqt '[.items[]|select(.name=="smoke-child")][0].parentBranch=="main"' "child re-parented"
req "$DEV" DELETE "$BD/$MUT/branches?branchName=main"; expect 403 "cannot delete production"
req "$DEV" DELETE "$BD/$MUT/branches"; expect 400 "delete branch without name"
req "$DEV" POST "$BD/$MUT/data-model/upload/start" '{"branchName":"smoke-child"}'; expect 201 "upload start"; UP=$(jq -r .uploadId "$R")
req "$DEV" POST "$BD/$MUT/data-model/upload/file" "{\"uploadId\":\"$UP\",\"path\":\"model/cubes/up.yml\",\"content\":\"Y3ViZXM6IFtdCg==\",\"encoding\":\"base64\"}"; expect 200 "upload file"
req "$DEV" POST "$BD/$MUT/data-model/upload/file" '{"uploadId":"nope","path":"a","content":"b"}'; expect 404 "upload unknown id"
req "$DEV" POST "$BD/$MUT/data-model/upload/finish" "{\"uploadId\":\"$UP\"}"; expect 200 "upload finish"; jqt '.fileCount==1' "upload applied"
req "$DEV" POST "$BD/$MUT/data-model/upload/finish" "{\"uploadId\":\"$UP\"}"; expect 409 "upload finished twice"
req "$DEV" GET "$D/$MUT/build-status?branchName=smoke-child"; jqt '.data.status=="building"' "build started by upload"
req "$DEV" POST "$BD/$MUT/github/connect" '{"repository":"acme/analytics-model","branch":"main"}'; expect 200 "github connect"
req "$DEV" POST "$BD/$MUT/github/connect" '{"repository":"nope"}'; expect 422 "github bad repo"
req "$VIEWER" GET "$BD/$MUT/branches"; expect 403 "viewer on build API"

echo "== dbt"
req "$DEV" POST "$D/$MUT/dbt-sync" '{"branchName":"main","ref":"refs/heads/main"}'; expect 202 "dbt start"; JOB=$(jq -r .data.id "$R")
req "$DEV" GET "$D/$MUT/dbt-sync/$JOB/result"; expect 204 "result while running"
req "$DEV" POST "$D/$MUT/dbt-sync" '{}'; JOB2=$(jq -r .data.id "$R")
req "$DEV" DELETE "$D/$MUT/dbt-sync/$JOB2"; expect 200 "cancel"; jqt '.data.status=="cancelled"' "cancelled"
sleep 1.1
req "$DEV" GET "$D/$MUT/dbt-sync/$JOB"; expect 200 "poll"; jqt '.data.status=="success"' "finished"
req "$DEV" GET "$D/$MUT/dbt-sync/$JOB/result"; expect 200 "result"; jqt '(.data.models|length)==4' "result models"
req "$DEV" GET "$D/$MUT/dbt-sync/$JOB/logs"; expect 200 "dbt logs"
req "$DEV" DELETE "$D/$MUT/dbt-sync/$JOB"; expect 409 "cancel finished"
req "$DEV" GET "$D/$MUT/dbt-sync?status=success&first=2"; expect 200 "dbt history"; jqt '[.items[]|.status=="success"]|all' "history filter"
req "$DEV" GET "$D/$MUT/dbt-sync?status=weird"; expect 400 "bad status filter"
req "$DEV" GET "$D/$MUT/dbt-sync/dbt_nope"; expect 404 "unknown job"
req "$DEV" POST "$D/$MUT/dbt-sync" '{"branchName":"ghost"}'; expect 404 "dbt unknown branch"

echo "== folders, reports, bulk delete"
req "$AIBI" POST "$D/$MUT/folders" '{"name":"Smoke Folder"}'; expect 201 "create folder"; SF=$(jq .data.id "$R")
req "$AIBI" POST "$D/$MUT/folders" "{\"name\":\"Sub\",\"parentId\":$SF}"; expect 201 "sub folder"; SUB=$(jq .data.id "$R")
req "$AIBI" POST "$D/$MUT/folders" "{\"name\":\"no\",\"parentId\":$FIN}"; expect 403 "folder under read-only parent"
req "$VIEWER" POST "$D/$MUT/folders" '{"name":"v"}'; expect 403 "viewer folder"
req "$ADMIN" GET "$D/$MUT/folders?parentId=$SF"; jqt "[.items[].id]==[$SUB]" "folders one level"
req "$ADMIN" GET "$D/$MUT/folders/$SF"; expect 200 "get folder"
L2=$(jq '.items[]|select(.name=="Q1")|.id' <(curl -s "$B$D/$MUT/folders?parentId=$(curl -s "$B$D/$MUT/folders?parentId=$FOLDER_CAMP" -H "Authorization: Bearer $ADMIN" | jq '.items[0].id')" -H "Authorization: Bearer $ADMIN"))
req "$ADMIN" POST "$D/$MUT/folders" "{\"name\":\"L5\",\"parentId\":$L2}"; expect 201 "depth 5 folder"; L5=$(jq .data.id "$R")
req "$ADMIN" POST "$D/$MUT/folders" "{\"name\":\"L6\",\"parentId\":$L5}"; expect 400 "depth 6 rejected"
req "$ADMIN" GET "$D/$MUT/reports?first=4"; expect 200 "reports"; jqt '(.items|length)==4 and .pageInfo.hasNextPage and ([.items[]|.type=="REPORT"]|all)' "reports page"
REP=$(jq '.items[0].id' "$R")
req "$ADMIN" GET "$D/$MUT/reports?sortBy=createdAt&search=revenue"; expect 200 "reports search"
req "$ADMIN" GET "$D/$MUT/reports?sortBy=lastViewedAt&first=3"; expect 200 "lastViewedAt sort"; jqt '.pageInfo.endCursor==null' "no cursor with lastViewedAt"
C=$(jq -r '"cx15-j"' <<<1); req "$ADMIN" GET "$D/$MUT/reports?sortBy=lastViewedAt&after=$C"; expect 400 "after with lastViewedAt"
req "$ADMIN" GET "$D/$MUT/reports?sortBy=size"; expect 400 "bad sortBy"
req "$ADMIN" GET "$D/$MUT/reports/$REP"; expect 200 "get report"
req "$ADMIN" PUT "$D/$MUT/reports/by-public-id/smoke-report" "{\"name\":\"Smoke report\",\"workbookId\":$REV,\"kind\":\"table\",\"sqlQuery\":\"select 1\"}"; expect 201 "report create by public id"
req "$ADMIN" PUT "$D/$MUT/reports/by-public-id/smoke-report" '{"title":"T"}'; expect 200 "report update by public id"; SREP=$(jq .data.id "$R")
req "$ADMIN" PUT "$D/$MUT/reports/by-public-id/other-report" '{"name":"x"}'; expect 400 "report create without workbookId"
req "$ADMIN" PUT "$D/$MUT/reports/by-public-id/smoke-report" '{"kind":"pie"}'; expect 422 "bad report kind"
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/connect-workbook" '{"externalWorkbookId":"gs-1","sheetName":"Sheet1","anchorCell":"B2"}'; expect 201 "connect (read access)"
PL=$(jq -r .data.placement.placementId "$R")
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/connect-workbook" '{"externalWorkbookId":"gs-1","sheetName":"Sheet1","anchorCell":"B2"}'; expect 200 "connect existing"
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/connect-workbook" '{"externalWorkbookId":"gs-1","sheetName":"Sheet1","anchorCell":"2B"}'; expect 422 "bad anchor"
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/connect-workbook" '{"sheetName":"Sheet1"}'; expect 400 "incomplete address"
req "$ADMIN" GET "$D/$MUT/reports?externalWorkbookId=gs-1"; jqt "[.items[].id]==[$SREP]" "reports by externalWorkbookId"
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/refresh" "{\"placementId\":\"$PL\"}"; expect 200 "refresh"; jqt '.data.placement.refreshCount==1' "refreshed"
req "$VIEWER" PUT "$D/$MUT/reports/$SREP/refresh" '{"placementId":"plc_nope"}'; expect 404 "refresh unknown"
req "$VIEWER" DELETE "$D/$MUT/reports/$SREP/connect-workbook?externalWorkbookId=gs-1&sheetName=Sheet1&anchorCell=B2"; expect 200 "disconnect"
req "$VIEWER" DELETE "$D/$MUT/reports/$SREP/connect-workbook" "{\"placementId\":\"$PL\"}"; expect 404 "disconnect twice"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-delete" "{\"items\":[{\"type\":\"FOLDER\",\"id\":$SF},{\"type\":\"FOLDER\",\"id\":$SUB},{\"type\":\"WORKBOOK\",\"id\":$CLONE_ID},{\"type\":\"REPORT\",\"id\":$SREP},{\"type\":\"WORKBOOK\",\"id\":5}]}"
expect 200 "bulk delete"; jqt '(.deleted|length)==3 and ([.failed[]|.error.status]|sort)==[400,404]' "bulk delete results"
req "$VIEWER" POST "$D/$MUT/workspace/bulk-delete" "{\"items\":[{\"type\":\"WORKBOOK\",\"id\":$REV}]}"; jqt '.failed[0].error.status==403' "bulk delete no access"
req "$ADMIN" POST "$D/$MUT/workspace/bulk-delete" '{"items":[]}'; expect 400 "bulk delete empty"
req "$ADMIN" DELETE "$D/$MUT/folders/$SF"; expect 200 "delete folder"
req "$ADMIN" DELETE "$D/$MUT/folders/$SF"; expect 404 "delete folder twice"

echo "== embedding"
req "$VIEWER" GET "$D/$MUT/workbooks/$REV/embed-access"; expect 200 "embed access"; jqt '.data.allEmbedUsers=="read"' "embed access view"
req "$ADMIN" GET "/api/v1/embed-tenants?first=2"; expect 200 "tenants"; jqt '(.items|length)==2 and .pageInfo.hasNextPage' "tenants paginated"
TEN=$(jq '.items[0].id' "$R")
req "$ADMIN" PUT "$D/$MUT/workbooks/$REV/embed-access" "{\"action\":\"read\",\"tenantId\":$TEN}"; expect 200 "embed access set"
req "$ADMIN" PUT "$D/$MUT/workbooks/$REV/embed-access" '{"action":"none","allEmbedUsers":true}'; jqt '.data.allEmbedUsers=="none"' "all embed users none"
req "$ADMIN" PUT "$D/$MUT/workbooks/$REV/embed-access" '{"action":"write","allEmbedUsers":true}'; expect 422 "bad action"
req "$VIEWER" PUT "$D/$MUT/workbooks/$REV/embed-access" '{"action":"read","allEmbedUsers":true}'; expect 403 "viewer embed access"
PUB=$(jq -r "[.items[]|select(.id==$BUDGET)][0].publishedDashboard.publicId" "$WBS")
req "$ADMIN" PATCH "/api/v1/embed/dashboard/$PUB" '{"allowEmbed":true}'; expect 200 "embed dashboard"; jqt '.data.allowEmbed==true' "allowEmbed on"
req "$ADMIN" PATCH "/api/v1/embed/dashboard/nope" '{"allowEmbed":true}'; expect 404 "embed unknown dashboard"
req "$ADMIN" PATCH "/api/v1/embed/dashboard/$PUB" '{}'; expect 400 "embed missing flag"
PYREP=$(jq -r "[.items[]|select(.id==$BUDGET)][0].publishedDashboard.reportSnapshots[]|select(.pythonCode!=null)|.reportId" "$WBS")
req "$ADMIN" POST "/api/v1/embed/dashboard/$PUB/python-run" "{\"reportId\":$PYREP,\"filters\":[{\"member\":\"orders.status\",\"operator\":\"equals\",\"values\":[\"x\"]}]}"; expect 200 "python run"
NONPY=$(jq -r "[.items[]|select(.id==$BUDGET)][0].publishedDashboard.reportSnapshots[]|select(.pythonCode==null)|.reportId" "$WBS")
req "$ADMIN" POST "/api/v1/embed/dashboard/$PUB/python-run" "{\"reportId\":$NONPY}"; expect 422 "python run on non-python report"
req "$ADMIN" POST "/api/v1/embed-tenants" '{"name":"Smoke Co","externalId":"smoke"}'; expect 201 "tenant create"; ST_ID=$(jq .data.id "$R")
req "$ADMIN" POST "/api/v1/embed-tenants" '{"name":"Smoke Co","externalId":"smoke"}'; expect 409 "tenant duplicate"
req "$DEV" POST "/api/v1/embed-tenants" '{"name":"x","externalId":"y"}'; expect 403 "developer tenant create"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID"; expect 200 "tenant get"
req "$ADMIN" PATCH "/api/v1/embed-tenants/$ST_ID" '{"description":"d"}'; expect 200 "tenant patch"
req "$ADMIN" POST "/api/v1/embed-tenants/$ST_ID/users" '{"externalId":"u1","email":"u1@smoke.example"}'; expect 201 "embed user create"; EU=$(jq .data.id "$R")
req "$ADMIN" POST "/api/v1/embed-tenants/$ST_ID/users" '{"externalId":"u2","email":"not-an-email"}'; expect 422 "embed user bad email"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID/users"; expect 200 "embed users list"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID/users/$EU"; expect 200 "embed user get"
req "$ADMIN" PATCH "/api/v1/embed-tenants/$ST_ID/users/$EU" '{"name":"U One"}'; expect 200 "embed user patch"
req "$ADMIN" POST "/api/v1/embed-tenants/$ST_ID/groups" '{"name":"G"}'; expect 201 "embed group create"; EG=$(jq .data.id "$R")
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID/groups"; expect 200 "embed groups"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID/groups/$EG"; expect 200 "embed group get"
req "$ADMIN" PATCH "/api/v1/embed-tenants/$ST_ID/groups/$EG" '{"name":"G2"}'; expect 200 "embed group patch"
req "$ADMIN" POST "/api/v1/embed-tenants/$ST_ID/groups/$EG/members" "{\"userIds\":[$EU]}"; expect 201 "add member"
req "$ADMIN" POST "/api/v1/embed-tenants/$ST_ID/groups/$EG/members" '{"userId":1}'; expect 422 "add foreign member"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID/groups/$EG/members"; jqt "[.items[].id]==[$EU]" "members list"
req "$ADMIN" DELETE "/api/v1/embed-tenants/$ST_ID/groups/$EG/members/$EU"; expect 200 "remove member"
req "$ADMIN" DELETE "/api/v1/embed-tenants/$ST_ID/groups/$EG"; expect 200 "delete embed group"
req "$ADMIN" DELETE "/api/v1/embed-tenants/$ST_ID/users/$EU"; expect 200 "delete embed user"
req "$ADMIN" DELETE "/api/v1/embed-tenants/$ST_ID"; expect 200 "delete tenant"
req "$ADMIN" GET "/api/v1/embed-tenants/$ST_ID"; expect 404 "tenant gone"

echo "== users, groups, policies, attributes, settings"
req "$VIEWER" GET "/api/v1/app-config"; expect 200 "app-config"; jqt '.data|has("appTheme") and has("applyThemeGlobally") and has("creatorMode") and has("embedding") and has("sheetsUi") and has("timezoneSettings")' "app-config fields"
req "$EMBED" GET "/api/v1/app-config"; jqt '.data.creatorMode==true' "creator mode reflects caller"
req "$ADMIN" GET "/api/v1/users?first=5"; expect 200 "users"; jqt '(.items|length)==5 and .pageInfo.hasNextPage and .count>=18' "users paginated"
req "$ADMIN" GET "/api/v1/users?search=zo%C3%AB"; jqt '(.items|length)==1' "users search non-ASCII"
req "$ADMIN" POST "/api/v1/users" '{"email":"smoke.user@acme.example","firstName":"Smoke","role":"viewer"}'; expect 201 "user create"; SU=$(jq .data.id "$R")
req "$ADMIN" POST "/api/v1/users" '{"email":"SMOKE.user@acme.example"}'; expect 409 "duplicate email"
req "$ADMIN" POST "/api/v1/users" '{"email":"x@y.z","role":"god"}'; expect 422 "bad role"
req "$DEV" POST "/api/v1/users" '{"email":"a@b.c"}'; expect 403 "developer creates user"
req "$ADMIN" GET "/api/v1/users/$SU"; expect 200 "user get"
req "$ADMIN" PUT "/api/v1/users/$SU" '{"role":"developer","lastName":"User"}'; expect 200 "user update"; jqt '.data.role=="developer"' "role changed"
req "$ADMIN" POST "/api/v1/users/bulk" "{\"action\":\"DEACTIVATE\",\"userIds\":[$SU,1]}"; expect 200 "bulk users"; jqt ".data.processed==[$SU] and .data.failed[0].error.status==404" "bulk users per-user failure"
req "$ADMIN" POST "/api/v1/users/bulk" "{\"action\":\"ACTIVATE\",\"userIds\":[$SU]}"; expect 200 "bulk activate"
req "$ADMIN" POST "/api/v1/users/bulk" '{"action":"EXPLODE","userIds":[1]}'; expect 422 "bulk bad action"
req "$ADMIN" POST "/api/v1/users/bulk" "{\"action\":\"DELETE\",\"userIds\":[$SU]}"; expect 200 "bulk delete users"
req "$ADMIN" GET "/api/v1/users/$SU"; expect 404 "deleted user gone"
req "$ADMIN" GET "/api/v1/groups?search=eng"; expect 200 "groups search"; jqt '(.items|length)==1' "group search"
req "$ADMIN" POST "/api/v1/groups" '{"name":"Smoke Group","memberIds":[]}'; expect 201 "group create"; SG=$(jq .data.id "$R")
req "$ADMIN" GET "/api/v1/groups/$SG"; expect 200 "group get"
req "$ADMIN" PUT "/api/v1/groups/$SG" '{"description":"d"}'; expect 200 "group update"
req "$ADMIN" POST "/api/v1/policies" "{\"principalType\":\"group\",\"principalId\":$SG,\"resourceType\":\"account\",\"actions\":[\"DownloadData\"]}"; expect 201 "policy create"; SP=$(jq .data.id "$R")
req "$ADMIN" POST "/api/v1/policies" '{"principalType":"user","principalId":1,"resourceType":"account","actions":["DownloadData"]}'; expect 422 "policy unknown principal"
req "$ADMIN" GET "/api/v1/policies?first=3"; expect 200 "policies"
req "$ADMIN" GET "/api/v1/policies/$SP"; expect 200 "policy get"
req "$ADMIN" PUT "/api/v1/policies/$SP" '{"actions":["SecretsManage"]}'; expect 200 "policy update"
req "$ADMIN" DELETE "/api/v1/policies/$SP"; expect 200 "policy delete"
req "$ADMIN" DELETE "/api/v1/groups/$SG"; expect 200 "group delete"
req "$ADMIN" GET "/api/v1/user-attributes/"; expect 200 "attributes"; ATTR=$(jq '.items[]|select(.name=="region")|.id' "$R")
req "$ADMIN" POST "/api/v1/user-attributes/" '{"name":"smoke_attr","type":"string_array"}'; expect 201 "attribute create"; SA=$(jq .data.id "$R")
req "$ADMIN" POST "/api/v1/user-attributes/" '{"name":"bad","type":"date"}'; expect 422 "attribute bad type"
req "$ADMIN" GET "/api/v1/user-attributes/$SA"; expect 200 "attribute get"
req "$ADMIN" PUT "/api/v1/user-attributes/$SA" '{"displayName":"Smoke"}'; expect 200 "attribute update"
AIKO_ID=$(curl -s "$B/api/v1/users?search=aiko" -H "Authorization: Bearer $ADMIN" | jq '.items[0].id')
req "$ADMIN" PUT "/api/v1/user-attribute-values/$AIKO_ID" "{\"values\":[{\"attributeId\":$SA,\"value\":[\"a\",\"b\"]},{\"name\":\"region\",\"value\":\"EMEA\"}]}"; expect 200 "attribute values set"
jqt '[.data.values[]|select(.name=="region")][0].value=="EMEA"' "attribute value stored"
req "$ADMIN" PUT "/api/v1/user-attribute-values/$AIKO_ID" "{\"values\":[{\"attributeId\":$SA,\"value\":5}]}"; expect 422 "attribute value wrong type"
req "$AIBI" GET "/api/v1/user-attribute-values/$AIKO_ID"; expect 200 "attribute values get"
req "$VIEWER" GET "/api/v1/tenant/settings"; expect 200 "tenant settings"
req "$ADMIN" PUT "/api/v1/tenant/settings" '{"sessionTimeoutMinutes":60}'; expect 200 "tenant settings update"
req "$ADMIN" PUT "/api/v1/tenant/settings" '{"sessionTimeoutMinutes":1}'; expect 422 "tenant settings range"
req "$ADMIN" PUT "/api/v1/tenant/settings" '{"auditLogEnabled":false}'; req "$AUDITOR" GET "/api/v1/audit-logs/export"; expect 402 "audit export without the feature"
req "$ADMIN" PUT "/api/v1/tenant/settings" '{"auditLogEnabled":true}'; expect 200 "re-enable audit"

echo "== integrations, github, notifications"
for P in oauth-integrations oidc-token-configs; do req "$ADMIN" GET "/api/v1/$P"; expect 200 "$P list"; done
req "$ADMIN" POST "/api/v1/oauth-integrations" '{"name":"Smoke","provider":"generic","clientId":"c","clientSecret":"supersecret"}'; expect 201 "oauth create"
OI=$(jq .data.id "$R"); jqt '.data.clientSecretHint=="****cret" and (.data|has("clientSecret")|not)' "secret write-only"
req "$ADMIN" GET "/api/v1/oauth-integrations/$OI"; expect 200 "oauth get"
req "$ADMIN" PATCH "/api/v1/oauth-integrations/$OI" '{"tokenUrl":"http://insecure"}'; expect 422 "oauth insecure url"
req "$ADMIN" PATCH "/api/v1/oauth-integrations/$OI" '{"scopes":["read","write"]}'; expect 200 "oauth patch"
req "$DEV" POST "/api/v1/user-oauth-tokens" "{\"integrationId\":$OI,\"accessToken\":\"tok-123456\"}"; expect 201 "token create"; TK=$(jq .data.id "$R")
req "$DEV" GET "/api/v1/user-oauth-tokens"; expect 200 "token list"; jqt "[.items[].id]|index($TK)!=null" "own token listed"
req "$AIBI" GET "/api/v1/user-oauth-tokens/$TK"; expect 404 "other user's token hidden"
req "$DEV" PATCH "/api/v1/user-oauth-tokens/$TK" '{"scopes":["x"]}'; expect 200 "token patch"
req "$DEV" GET "/api/v1/user-oauth-tokens/$TK"; expect 200 "token get"
req "$DEV" DELETE "/api/v1/user-oauth-tokens/$TK"; expect 200 "token delete"
req "$ADMIN" DELETE "/api/v1/oauth-integrations/$OI"; expect 200 "oauth delete"
req "$ADMIN" POST "/api/v1/oidc-token-configs" '{"name":"Smoke","issuer":"https://issuer.example","audience":"x"}'; expect 201 "oidc create"; OC=$(jq .data.id "$R")
req "$ADMIN" GET "/api/v1/oidc-token-configs/$OC"; expect 200 "oidc get"
req "$ADMIN" PATCH "/api/v1/oidc-token-configs/$OC" '{"audience":"y"}'; expect 200 "oidc patch"
req "$ADMIN" DELETE "/api/v1/oidc-token-configs/$OC"; expect 200 "oidc delete"
req "$DEV" GET "/api/v1/github/status"; expect 200 "github status"
req "$DEV" GET "/api/v1/github/installations"; expect 200 "installations"; INST=$(jq '.items[0].id' "$R")
req "$DEV" GET "/api/v1/github/installations/$INST/repositories"; expect 200 "repositories"
req "$DEV" GET "/api/v1/github/installations/1/repositories"; expect 404 "unknown installation"
req "$DEV" GET "/api/v1/github/repositories/acme/analytics-model/branches"; expect 200 "repo branches"
req "$DEV" GET "/api/v1/github/repositories/acme/none/branches"; expect 404 "unknown repo"
req "$VIEWER" GET "$D/$MUT/notifications"; expect 200 "notifications"; jqt '(.items|length)==3' "seeded notifications"
req "$AIBI" POST "$D/$MUT/notifications" "{\"name\":\"Smoke\",\"workbookId\":$REV,\"schedule\":\"0 9 * * 1\",\"timeGrain\":\"week\",\"filters\":[{\"member\":\"orders.x\",\"operator\":\"is_empty\"}]}"; expect 201 "notification create"; NT=$(jq .data.id "$R")
req "$AIBI" POST "$D/$MUT/notifications" "{\"name\":\"S\",\"workbookId\":$REV,\"schedule\":\"0 9 * * 1\",\"filters\":[{\"member\":\"m\",\"operator\":\"is_not_empty\",\"values\":[\"x\"]}]}"; expect 422 "is_not_empty with values"
req "$AIBI" POST "$D/$MUT/notifications" "{\"name\":\"S\",\"workbookId\":$REV,\"schedule\":\"every day\"}"; expect 422 "bad cron"
req "$AIBI" GET "$D/$MUT/notifications/$NT"; expect 200 "notification get"
req "$AIBI" PATCH "$D/$MUT/notifications/$NT" '{"enabled":false}'; expect 200 "notification patch"
req "$AIBI" DELETE "$D/$MUT/notifications/$NT"; expect 200 "notification delete"
req "$VIEWER" POST "$D/$MUT/notifications" "{\"name\":\"S\",\"workbookId\":$REV,\"schedule\":\"0 9 * * 1\"}"; expect 403 "viewer notification"

echo "== spec"
req "$VIEWER" GET "/api/v1/spec"; expect 200 "spec"; cp "$R" "$LOG/spec.json"
jqt '.openapi|startswith("3.1")' "OpenAPI 3.1"; jqt '.info.version=="1.0.0"' "version 1.0.0"
jqt '.components.securitySchemes.bearerAuth.scheme=="bearer"' "bearer scheme"
jqt '[.paths[]|keys[]]|length>=130' "130 operations described"
for p in "/api/v1/deployments" "/api/v1/deployments/{deploymentId}/environments" "/build/api/v1/deployments/{deploymentId}/branches/staging-environment" \
  "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}" "/api/v1/deployments/{deploymentId}/workspace/bulk-move" "/api/v1/regions/" "/build/api/v1/deployments/" "/api/v1/user-attributes/"; do
  jq -e --arg p "$p" '.paths[$p]' "$R" >/dev/null && ok || bad "spec lacks $p"
done

echo "== robustness"
for body in '{"name":' '{"name":"\ud800"}' '[1,2' 'nul' '{"a":1}{"b":2}' "$(printf '{"x":"\xff\xfe"}')" '{"deep":'"$(printf '[%.0s' $(seq 1 200))"; do
  req "$ADMIN" PUT "$D/$MUT/workbooks/by-slug/robust" "$body"; [ "$ST" = 400 ] && ok || bad "malformed body -> $ST ($body)"
done
req "$ADMIN" GET "$D/$MUT/workbooks/by-slug/%zz"; [ "${ST:0:1}" = 4 ] && ok || bad "bad percent-encoding $ST"
req "$ADMIN" GET "$D/$MUT/workbooks?folderId=%E2%98%83"; expect 400 "non-ASCII query value"
req "$ADMIN" PUT "$D/$MUT/workbooks/by-slug/%E2%98%83-snow" '{"name":"Schnee ☃ ü"}'; expect 200 "non-ASCII slug and name"; jqt '.slug=="☃-snow" and .name=="Schnee ☃ ü"' "UTF-8 round trip"
head -c 7000000 /dev/zero | tr '\0' 'a' >"$LOG/huge.txt"
ST=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$B$D/$MUT/env-vars" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' --data-binary @"$LOG/huge.txt"); [ "$ST" = 413 ] && ok || bad "huge body $ST"
ST=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$B$D/$MUT/folders" -H "Authorization: Bearer $ADMIN" -H 'Transfer-Encoding: chunked' -H 'Content-Type: application/json' --data-binary '{"name":"Chunked folder"}'); [ "$ST" = 201 ] && ok || bad "chunked body $ST"
ST=$(printf 'GARBAGE\r\n\r\n' | curl -s -o /dev/null -w '%{http_code}' --max-time 3 telnet://127.0.0.1:${B##*:} 2>/dev/null; true)
# concurrent writers: 40 parallel env var writes must all land
CP=()
for i in $(seq 1 40); do
  curl -s -o /dev/null -X PUT "$B$D/$MUT/env-vars" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' -d "{\"env_variables\":[{\"name\":\"CONC_$i\",\"value\":\"$i\"}]}" &
  CP+=($!)
done
for p in "${CP[@]}"; do wait "$p"; done
req "$ADMIN" GET "$D/$MUT/env-vars?first=75"; jqt '[.items[]|select(.name|startswith("CONC_"))]|length==40' "no lost concurrent writes"
# keep-alive: several requests on one connection
KA=$(curl -s -o /dev/null -w '%{num_connects} ' "$B/api/v1/app-config" "$B/api/v1/app-config" "$B/api/v1/app-config" -H "Authorization: Bearer $ADMIN")
[ "$(echo $KA | awk '{print $1+$2+$3}')" = 1 ] && ok || bad "keep-alive connects: $KA"
req "$ADMIN" GET "/api/v1/app-config"; expect 200 "server still alive"
if grep -E '" 5[0-9][0-9]$|\t5[0-9][0-9]\t' "$LOG/index" >/dev/null; then bad "some request answered 5xx"; else ok; fi

echo "== schema validation of every logged JSON answer against /api/v1/spec"
if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 - "$LOG" <<'PY'
import json, os, re, sys
import jsonschema
log = sys.argv[1]
spec = json.load(open(os.path.join(log, "spec.json")))
comps = spec["components"]["schemas"]
routes = []
for p, ops in spec["paths"].items():
    rx = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(p)) + "$"
    for m, op in ops.items():
        routes.append((m.upper(), re.compile(rx), op, p))
fails = 0; checked = 0
for line in open(os.path.join(log, "index")):
    m, path, st, n = line.rstrip("\n").split("\t")
    cands = [r for r in routes if r[0] == m and r[1].match(path)]
    if not cands: continue
    cands.sort(key=lambda r: -len(re.sub(r"\{[^}]+\}", "", r[3])))
    op = cands[0][2]
    resp = op["responses"].get(st)
    if resp is None:
        if st not in ("307",):
            print(f"UNDOCUMENTED STATUS {st} for {m} {path}"); fails += 1
        continue
    content = resp.get("content", {})
    body = open(os.path.join(log, f"r{n}.body"), "rb").read()
    if "application/json" not in content: continue
    try:
        data = json.loads(body)
    except Exception:
        print(f"NOT JSON {m} {path} {st}"); fails += 1; continue
    schema = dict(content["application/json"]["schema"])
    schema["components"] = {"schemas": comps}
    def fix(o):
        if isinstance(o, dict):
            return {k: (v.replace("#/components", "#/components") if k == "$ref" else fix(v)) for k, v in o.items()}
        if isinstance(o, list): return [fix(x) for x in o]
        return o
    try:
        jsonschema.validate(data, fix(schema), cls=jsonschema.Draft202012Validator)
        checked += 1
    except jsonschema.ValidationError as e:
        fails += 1
        print(f"SCHEMA MISMATCH {m} {path} {st}: {e.message[:200]} at {list(e.absolute_path)[:6]}")
hit = set()
for line in open(os.path.join(log, "index")):
    m, path, st, n = line.rstrip("\n").split("\t")
    cands = [r for r in routes if r[0] == m and r[1].match(path)]
    cands.sort(key=lambda r: -len(re.sub(r"\{[^}]+\}", "", r[3])))
    if cands: hit.add((m, cands[0][3]))
missing = sorted({(r[0], r[3]) for r in routes} - hit)
for mm in missing: print("NOT EXERCISED", mm); fails += 1
print(f"{len(routes)} operations in the spec, {len(hit)} exercised")
print(f"validated {checked} answers, {fails} problems")
sys.exit(1 if fails else 0)
PY
  [ $? = 0 ] && ok || bad "schema validation"
else
  echo "(python3 jsonschema not available: skipped)"
fi

echo
echo "operations exercised: $(cut -f1,2 "$LOG/index" | sed -E 's#/[0-9]{3,}#/{id}#g; s#/(cx|dbt_|upl_|plc_)[A-Za-z0-9_-]+#/{id}#g' | sort -u | wc -l) distinct method+path shapes"
echo "PASS=$PASS FAIL=$FAIL  (logs in $LOG)"
[ "$FAIL" = 0 ]
