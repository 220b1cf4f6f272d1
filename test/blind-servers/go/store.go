package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

var mu sync.Mutex

const (
	RoleViewer    = 1
	RoleAIBI      = 2
	RoleDeveloper = 3
	RoleAdmin     = 4
)

var roleNames = map[int]string{RoleViewer: "viewer", RoleAIBI: "ai_bi_user", RoleDeveloper: "developer", RoleAdmin: "admin"}

func roleFromName(s string) (int, bool) {
	for k, v := range roleNames {
		if strings.EqualFold(v, s) {
			return k, true
		}
	}
	return 0, false
}

type User struct {
	ID          int
	Email       string
	FirstName   string
	LastName    string
	Role        int
	Active      bool
	Perms       []string
	ScopeDep    int // 0 = all deployments
	CreatorMode bool
	EmbedOnly   bool
	Key         string
	CreatedAt   time.Time
}

func (u *User) has(perm string) bool {
	for _, p := range u.Perms {
		if p == perm {
			return true
		}
	}
	return false
}

func (u *User) out() map[string]any {
	return map[string]any{"id": u.ID, "email": u.Email, "firstName": u.FirstName, "lastName": u.LastName,
		"role": roleNames[u.Role], "status": map[bool]string{true: "active", false: "deactivated"}[u.Active],
		"permissions": nz(u.Perms), "createdAt": u.CreatedAt}
}

func nz(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type Deployment struct {
	ID                        int
	Name                      string
	CreatedAt                 time.Time
	Region                    string
	CloudProvider             string
	ReleaseChannel            string
	Version                   string
	Hold                      bool
	Template                  string
	TemplateVariables         map[string]any
	DefaultLaunchpadViewGroup any
	LaunchpadTabs             any
	CreationMethod            string
	DeployMode                string
	CreationStep              int
	WorkbookLimit             int
	EnvVars                   []EnvVar
	GitRepo                   string
	Deleted                   bool
}

var creationSteps = []string{"connect_data_source", "generate_data_model", "configure_repository", "deploy", "done"}

type Branch struct {
	ID           int               `json:"id"`
	DeploymentID int               `json:"-"`
	Name         string            `json:"name"`
	ParentBranch *string           `json:"parentBranch"`
	LastHash     string            `json:"lastHash"`
	Staging      bool              `json:"isStagingEnvironmentEnabled"`
	Kind         string            `json:"kind"` // production | shared | personal
	OwnerID      int               `json:"-"`
	DevMode      bool              `json:"devMode"`
	CreatedAt    time.Time         `json:"createdAt"`
	Files        map[string]string `json:"-"`
	Uncommitted  bool              `json:"hasUncommittedChanges"`
}

type Item struct {
	ID               int
	DeploymentID     int
	Type             string // FOLDER WORKBOOK REPORT
	Name             string
	Meta             map[string]any
	CalculatedFields map[string]any
	CreatedAt        time.Time
	UpdatedAt        time.Time
	CreatedBy        int
	FolderID         *int
	Slug             *string
	Restricted       bool
	Position         int
	Draft            map[string]any
	Published        *Dashboard
	WorkbookID       int // reports: owning workbook
	PublicID         string
	Favorite         bool
	LastViewedAt     *time.Time
	SQL              string
	Kind             string
	Placements       []map[string]any
	EmbedAccess      map[string]string
	Shared           bool
}

type Dashboard struct {
	ID                   int              `json:"id"`
	PublicID             string           `json:"publicId"`
	DeploymentID         int              `json:"deploymentId"`
	WorkbookID           int              `json:"workbookId"`
	Status               string           `json:"status"`
	AllowEmbed           bool             `json:"allowEmbed"`
	Config               map[string]any   `json:"config"`
	VersionNumber        int              `json:"versionNumber"`
	VersionID            int              `json:"versionId"`
	ReportSnapshots      []map[string]any `json:"reportSnapshots"`
	CreatedBy            *int             `json:"createdBy"`
	Title                *string          `json:"title"`
	Description          *string          `json:"description"`
	FromSharedWorkspace  *bool            `json:"fromSharedWorkspace"`
	RestrictDataDownload *bool            `json:"restrictDataDownload"`
	UseBoardDashboards   *bool            `json:"useBoardDashboards"`
}

type AuditEvent struct {
	ID           int
	At           time.Time
	Name         string
	UserEmail    string
	DeploymentID int
	IP           string
	Data         map[string]any
}

type Store struct {
	Deps      map[int]*Deployment
	Users     map[int]*User
	Branches  []*Branch
	Items     map[int]*Item
	Audit     []AuditEvent
	EnvIDs    map[string]string
	Coll      map[string]*Coll
	Tenant    map[string]any
	AppConfig map[string]any
	Uploads   map[string]map[string]any
	Plan      string
}

var st *Store
var seq = 1000
var jwtSecret = make([]byte, 32)

func nextID() int { seq++; return seq }

func now() time.Time { return time.Now().UTC() }

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// environment ids: Mongo-style 24-hex object ids, stable per (deployment, branch, type)
func envID(dep int, branch string, typ string) string {
	k := fmt.Sprintf("%d/%s/%s", dep, branch, typ)
	if id, ok := st.EnvIDs[k]; ok {
		return id
	}
	id := fmt.Sprintf("%08x", uint32(time.Now().Unix())) + randHex(8)
	st.EnvIDs[k] = id
	return id
}

// ---------- JWT (HS256) ----------

func b64u(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func signJWT(claims map[string]any) string {
	h, _ := json.Marshal(map[string]any{"alg": "HS256", "typ": "JWT"})
	p, _ := json.Marshal(claims)
	s := b64u(h) + "." + b64u(p)
	m := hmac.New(sha256.New, jwtSecret)
	m.Write([]byte(s))
	return s + "." + b64u(m.Sum(nil))
}

func verifyJWT(tok string) bool {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return false
	}
	m := hmac.New(sha256.New, jwtSecret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	return hmac.Equal([]byte(b64u(m.Sum(nil))), []byte(parts[2]))
}

// ---------- auth ----------

func authenticate(r *http.Request) (*User, int, string, string) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return nil, 401, "unauthenticated", "missing Authorization header"
	}
	sp := strings.SplitN(h, " ", 2)
	if len(sp) != 2 || strings.TrimSpace(sp[1]) == "" {
		return nil, 401, "unauthenticated", "malformed Authorization header"
	}
	scheme, key := strings.ToLower(sp[0]), strings.TrimSpace(sp[1])
	if scheme != "bearer" && scheme != "api-key" {
		return nil, 401, "unauthenticated", "unsupported authorization scheme"
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range st.Users {
		if u.Key != "" && hmac.Equal([]byte(u.Key), []byte(key)) {
			if !u.Active {
				return nil, 403, "user_deactivated", "the user owning this key is deactivated"
			}
			return u, 0, "", ""
		}
	}
	if verifyJWT(key) {
		return nil, 403, "metadata_token_not_allowed", "metadata tokens are limited to metadata endpoints"
	}
	return nil, 401, "unauthenticated", "invalid API key"
}

// dep resolves {deploymentId} with access checks.
func dep(c *Ctx) *Deployment {
	raw := c.P["deploymentId"]
	var id int
	if _, err := fmt.Sscanf(raw, "%d", &id); err != nil || fmt.Sprint(id) != strings.TrimLeft(raw, "0") && raw != "0" {
		fail(c, 404, "deployment_not_found", "deployment "+raw+" not found")
		return nil
	}
	d := st.Deps[id]
	if d == nil || d.Deleted {
		fail(c, 404, "deployment_not_found", "deployment "+raw+" not found")
		return nil
	}
	if c.U.ScopeDep != 0 && c.U.ScopeDep != id {
		fail(c, 403, "deployment_forbidden", "this key has no access to deployment "+raw)
		return nil
	}
	return d
}

func needRole(c *Ctx, r int) bool {
	if r >= RoleAdmin && c.U.ScopeDep != 0 && c.P["deploymentId"] == "" {
		fail(c, 403, "account_admin_required", "a deployment-scoped key cannot perform account-level administration")
		return false
	}
	if c.U.Role < r {
		fail(c, 403, "insufficient_role", "this operation requires the "+roleNames[r]+" role or higher")
		return false
	}
	return true
}

func visibleDeps(u *User) []*Deployment {
	var out []*Deployment
	for _, d := range st.Deps {
		if d.Deleted {
			continue
		}
		if u.ScopeDep != 0 && u.ScopeDep != d.ID {
			continue
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].ID > out[j].ID
		}
		return out[i].CreatedAt.After(out[j].CreatedAt)
	})
	return out
}

// ---------- workspace access ----------

func (it *Item) ancestors() []*Item {
	var out []*Item
	cur := it.FolderID
	for i := 0; cur != nil && i < 64; i++ {
		f := st.Items[*cur]
		if f == nil {
			break
		}
		out = append(out, f)
		cur = f.FolderID
	}
	return out
}

func canRead(u *User, it *Item) bool {
	if u.Role >= RoleAdmin && u.ScopeDep == 0 || u.Role >= RoleAdmin && u.ScopeDep == it.DeploymentID {
		return true
	}
	chain := append([]*Item{it}, it.ancestors()...)
	for _, f := range chain {
		if f.Type == "FOLDER" && f.Restricted && f.CreatedBy != u.ID {
			return false
		}
	}
	return true
}

func canEdit(u *User, it *Item) bool {
	if !canRead(u, it) {
		return false
	}
	return u.Role >= RoleDeveloper || it.CreatedBy == u.ID || canManage(u, it)
}

func canManage(u *User, it *Item) bool {
	if !canRead(u, it) {
		return false
	}
	if u.Role >= RoleAdmin || it.CreatedBy == u.ID {
		return true
	}
	for _, f := range it.ancestors() {
		if f.CreatedBy == u.ID {
			return true
		}
	}
	return false
}

func depth(it *Item) int { return len(it.ancestors()) + 1 }

const maxFolderDepth = 10

func workbookCount(depID int) int {
	n := 0
	for _, it := range st.Items {
		if it.DeploymentID == depID && it.Type == "WORKBOOK" {
			n++
		}
	}
	return n
}

func itemsOf(depID int, typ string) []*Item {
	var out []*Item
	for _, it := range st.Items {
		if it.DeploymentID == depID && (typ == "" || it.Type == typ) {
			out = append(out, it)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ---------- generic collections (E14) ----------

type Coll struct {
	Name  string
	Items []map[string]any
}

func coll(name string) *Coll {
	c := st.Coll[name]
	if c == nil {
		c = &Coll{Name: name}
		st.Coll[name] = c
	}
	return c
}

func (c *Coll) find(match func(m map[string]any) bool) (int, map[string]any) {
	for i, m := range c.Items {
		if match(m) {
			return i, m
		}
	}
	return -1, nil
}

func (c *Coll) byID(id string, parent map[string]any) (int, map[string]any) {
	return c.find(func(m map[string]any) bool {
		if fmt.Sprint(m["id"]) != id {
			return false
		}
		for k, v := range parent {
			if fmt.Sprint(m[k]) != fmt.Sprint(v) {
				return false
			}
		}
		return true
	})
}

func ptrS(s string) *string { return &s }
func ptrI(i int) *int       { return &i }
func ptrB(b bool) *bool     { return &b }
