package main

import (
	"bytes"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ---------- routing ----------

type Ctx struct {
	W      http.ResponseWriter
	R      *http.Request
	P      map[string]string
	U      *User
	body   map[string]any
	parsed bool
}

type Route struct {
	Method  string
	Path    string // spec spelling
	OpID    string
	Summary string
	Tag     string
	Req     map[string]any // request body schema (nil = none)
	Resp    map[string]any // success response schema
	Status  int            // success status
	Params  []map[string]any
	NoAuth  bool
	H       func(c *Ctx)
	segs    []string
}

var routes []*Route

func route(method, path, op, summary string, status int, req, resp map[string]any, h func(c *Ctx), params ...map[string]any) *Route {
	rt := &Route{Method: method, Path: path, OpID: op, Summary: summary, Status: status, Req: req, Resp: resp, H: h, Params: params}
	rt.segs = strings.Split(strings.Trim(path, "/"), "/")
	if strings.HasPrefix(path, "/build/") {
		rt.Tag = "build"
	} else {
		rt.Tag = "platform"
	}
	routes = append(routes, rt)
	return rt
}

func matchSegs(segs, parts []string) (map[string]string, bool) {
	if len(segs) != len(parts) {
		return nil, false
	}
	p := map[string]string{}
	for i, s := range segs {
		if strings.HasPrefix(s, "{") {
			if parts[i] == "" {
				return nil, false
			}
			p[s[1:len(s)-1]] = parts[i]
		} else if s != parts[i] {
			return nil, false
		}
	}
	return p, true
}

type server struct{}

func (server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	c := &Ctx{W: w, R: r}
	// read the whole body up front (bounded) so no early answer leaves unread bytes behind
	rawBody, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20+1))
	r.Body = io.NopCloser(bytes.NewReader(rawBody))
	tooBig := len(rawBody) > 1<<20
	defer func() {
		if e := recover(); e != nil {
			log.Printf("panic on %s %s: %v", r.Method, r.URL.Path, e)
			fail(c, 400, "bad_request", "the request could not be processed")
		}
		log.Printf("%s %s %s", r.Method, r.URL.RequestURI(), time.Since(start))
	}()
	w.Header().Set("X-Api-Version", "1.0.0")
	path := r.URL.Path
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}
	trailing := strings.HasSuffix(path, "/") && len(path) > 1
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var allowed []string
	var found *Route
	var params map[string]string
	exactSlash := false
	for _, rt := range routes {
		p, ok := matchSegs(rt.segs, parts)
		if !ok {
			continue
		}
		specSlash := strings.HasSuffix(rt.Path, "/")
		if rt.Method != r.Method && !(r.Method == "HEAD" && rt.Method == "GET") {
			allowed = append(allowed, rt.Method)
			continue
		}
		if found == nil || (specSlash == trailing && !exactSlash) {
			found, params, exactSlash = rt, p, specSlash == trailing
		}
	}
	if found == nil {
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(uniq(allowed), ", "))
			fail(c, 405, "method_not_allowed", fmt.Sprintf("method %s is not allowed on %s", r.Method, path))
			return
		}
		fail(c, 404, "route_not_found", "no such endpoint: "+path)
		return
	}
	if !exactSlash && (r.Method == "GET" || r.Method == "HEAD") {
		canon := "/" + strings.Trim(path, "/")
		if strings.HasSuffix(found.Path, "/") {
			canon += "/"
		}
		if r.URL.RawQuery != "" {
			canon += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", canon)
		w.WriteHeader(301)
		return
	}
	c.P = params
	if !found.NoAuth {
		u, st, code, msg := authenticate(r)
		if u == nil {
			if st == 401 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="platform-api", error="invalid_token"`)
			}
			fail(c, st, code, msg)
			return
		}
		c.U = u
	}
	if r.Method != "POST" && r.Method != "PUT" && r.Method != "PATCH" {
		// drain any body sent with GET/DELETE so the connection is not reset; DELETE may carry JSON
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if r.Method == "DELETE" && len(bytes.TrimSpace(b)) > 0 {
			var v any
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if dec.Decode(&v) == nil {
				if m, ok := v.(map[string]any); ok {
					c.body = normNumbers(m).(map[string]any)
				}
			}
		}
	}
	if r.Method == "POST" || r.Method == "PUT" || r.Method == "PATCH" {
		ct := strings.ToLower(r.Header.Get("Content-Type"))
		if strings.HasPrefix(ct, "multipart/") || strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
			fail(c, 415, "unsupported_media_type", "request bodies must be JSON")
			return
		}
		b := rawBody
		if tooBig {
			fail(c, 413, "payload_too_large", "request body exceeds 1 MiB")
			return
		}
		c.parsed = true
		if len(bytes.TrimSpace(b)) > 0 {
			var v any
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				fail(c, 400, "malformed_json", "request body is not valid JSON: "+err.Error())
				return
			}
			if dec.More() {
				fail(c, 400, "malformed_json", "request body has trailing data after the JSON value")
				return
			}
			m, ok := v.(map[string]any)
			if !ok {
				fail(c, 400, "invalid_body", "request body must be a JSON object")
				return
			}
			c.body = normNumbers(m).(map[string]any)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	found.H(c)
}

func normNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return float64(i)
		}
		f, err := t.Float64()
		if err != nil {
			return t.String()
		}
		return f
	case map[string]any:
		for k, x := range t {
			t[k] = normNumbers(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = normNumbers(x)
		}
		return t
	}
	return v
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var o []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			o = append(o, x)
		}
	}
	return o
}

// ---------- responses ----------

func send(c *Ctx, status int, v any) {
	c.W.Header().Set("Content-Type", "application/json; charset=UTF-8")
	c.W.Header().Set("Cache-Control", "no-store")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(v); err != nil {
		log.Printf("encode error: %v", err)
		buf.Reset()
		buf.WriteString(`{"error":"response could not be encoded","code":"encode_error"}` + "\n")
	}
	c.W.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	c.W.WriteHeader(status)
	c.W.Write(buf.Bytes())
}

func noContent(c *Ctx) { c.W.WriteHeader(204) }

type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
	Field string `json:"field,omitempty"`
}

func fail(c *Ctx, status int, code, msg string) {
	send(c, status, apiError{Error: msg, Code: code})
}

func failField(c *Ctx, field, msg string) {
	send(c, 400, apiError{Error: msg, Code: "validation_failed", Field: field})
}

// ---------- body helpers ----------

func (c *Ctx) has(k string) bool { _, ok := c.body[k]; return ok }

func (c *Ctx) str(k string, required bool) (string, bool, bool) {
	v, ok := c.body[k]
	if !ok || v == nil {
		if required {
			failField(c, k, k+" is required")
			return "", false, false
		}
		return "", false, true
	}
	s, isS := v.(string)
	if !isS {
		failField(c, k, k+" must be a string")
		return "", false, false
	}
	return s, true, true
}

func (c *Ctx) boolean(k string, required bool) (bool, bool, bool) {
	v, ok := c.body[k]
	if !ok || v == nil {
		if required {
			failField(c, k, k+" is required")
			return false, false, false
		}
		return false, false, true
	}
	b, isB := v.(bool)
	if !isB {
		failField(c, k, k+" must be a boolean")
		return false, false, false
	}
	return b, true, true
}

// integer body field; returns (value, present, ok)
func (c *Ctx) integer(k string, required bool) (int, bool, bool) {
	v, ok := c.body[k]
	if !ok || v == nil {
		if required {
			failField(c, k, k+" is required")
			return 0, false, false
		}
		return 0, false, true
	}
	f, isF := v.(float64)
	if !isF || f != float64(int64(f)) || f > 1e15 || f < -1e15 {
		failField(c, k, k+" must be an integer")
		return 0, false, false
	}
	return int(f), true, true
}

func (c *Ctx) obj(k string, required bool) (map[string]any, bool, bool) {
	v, ok := c.body[k]
	if !ok || v == nil {
		if required {
			failField(c, k, k+" is required")
			return nil, false, false
		}
		return nil, false, true
	}
	m, isM := v.(map[string]any)
	if !isM {
		failField(c, k, k+" must be an object")
		return nil, false, false
	}
	return m, true, true
}

func asInt(v any) (int, bool) {
	if i, ok := v.(int); ok {
		return i, true
	}
	f, ok := v.(float64)
	if !ok || f != float64(int64(f)) || f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int(f), true
}

// ---------- query helpers ----------

func (c *Ctx) q(k string) (string, bool) {
	vals, ok := c.R.URL.Query()[k]
	if !ok || len(vals) == 0 {
		return "", false
	}
	return vals[0], true // first value wins
}

func (c *Ctx) qInt(k string, min, max, def int) (int, bool) {
	s, ok := c.q(k)
	if !ok || s == "" {
		return def, true
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		failField(c, k, fmt.Sprintf("query parameter %s must be an integer", k))
		return 0, false
	}
	if n < min {
		failField(c, k, fmt.Sprintf("query parameter %s must be >= %d", k, min))
		return 0, false
	}
	if max > 0 && n > max {
		failField(c, k, fmt.Sprintf("query parameter %s must be <= %d", k, max))
		return 0, false
	}
	return n, true
}

// ---------- pagination ----------

const maxPage = 500
const defaultCursorPage = 15

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func encCursor(i int) string {
	return strings.ToLower(b32.EncodeToString([]byte("at=" + strconv.Itoa(i))))
}

func decCursor(s string) (int, bool) {
	b, err := b32.DecodeString(strings.ToUpper(s))
	if err != nil || !strings.HasPrefix(string(b), "at=") {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[3:]))
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

type PageInfo struct {
	HasNextPage     bool    `json:"hasNextPage"`
	HasPreviousPage bool    `json:"hasPreviousPage"`
	StartCursor     *string `json:"startCursor"`
	EndCursor       *string `json:"endCursor"`
}

type Pagination struct {
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
	Total  int `json:"total"`
}

// cursorWindow parses first/after and returns [start,end) over n items.
// def<=0 means "everything when first omitted".
func cursorWindow(c *Ctx, n int, def int) (int, int, PageInfo, bool) {
	first, ok := c.qInt("first", 1, maxPage, def)
	if !ok {
		return 0, 0, PageInfo{}, false
	}
	start := 0
	if a, has := c.q("after"); has && a != "" {
		i, ok := decCursor(a)
		if !ok {
			fail(c, 400, "invalid_cursor", "the after cursor is not valid")
			return 0, 0, PageInfo{}, false
		}
		start = i + 1
	}
	if start > n {
		start = n
	}
	end := n
	if first > 0 && start+first < n {
		end = start + first
	}
	pi := PageInfo{HasNextPage: end < n, HasPreviousPage: start > 0}
	if end > start {
		s, e := encCursor(start), encCursor(end-1)
		pi.StartCursor, pi.EndCursor = &s, &e
	}
	return start, end, pi, true
}

func offsetWindow(c *Ctx, n int, minLimit int) (int, int, Pagination, bool) {
	off, ok := c.qInt("offset", 0, 0, 0)
	if !ok {
		return 0, 0, Pagination{}, false
	}
	lim, ok := c.qInt("limit", minLimit, maxPage, 20)
	if !ok {
		return 0, 0, Pagination{}, false
	}
	s := off
	if s > n {
		s = n
	}
	e := s + lim
	if e > n {
		e = n
	}
	return s, e, Pagination{Offset: off, Limit: lim, Total: n}, true
}

// list answers with items/pageInfo plus legacy data/count.
func listCursor[T any](c *Ctx, all []T, def int, extra map[string]any) {
	s, e, pi, ok := cursorWindow(c, len(all), def)
	if !ok {
		return
	}
	page := append([]T{}, all[s:e]...)
	out := map[string]any{"items": page, "pageInfo": pi, "data": page, "count": len(all)}
	for k, v := range extra {
		out[k] = v
	}
	send(c, 200, out)
}
