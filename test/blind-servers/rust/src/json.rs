// Minimal JSON value, parser and serializer (insertion-ordered objects).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    I(i64),
    F(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn obj() -> Json { Json::Obj(Vec::new()) }
    pub fn get(&self, k: &str) -> Option<&Json> {
        if let Json::Obj(v) = self { v.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v) } else { None }
    }
    pub fn get_mut(&mut self, k: &str) -> Option<&mut Json> {
        if let Json::Obj(v) = self { v.iter_mut().rev().find(|(kk, _)| kk == k).map(|(_, v)| v) } else { None }
    }
    pub fn has(&self, k: &str) -> bool { self.get(k).is_some() }
    pub fn set(&mut self, k: &str, val: Json) {
        if let Json::Obj(v) = self {
            if let Some(e) = v.iter_mut().find(|(kk, _)| kk == k) { e.1 = val; } else { v.push((k.to_string(), val)); }
        }
    }
    pub fn remove(&mut self, k: &str) { if let Json::Obj(v) = self { v.retain(|(kk, _)| kk != k); } }
    pub fn with(mut self, k: &str, val: impl Into<Json>) -> Json { self.set(k, val.into()); self }
    pub fn as_str(&self) -> Option<&str> { if let Json::Str(s) = self { Some(s) } else { None } }
    pub fn as_bool(&self) -> Option<bool> { if let Json::Bool(b) = self { Some(*b) } else { None } }
    pub fn as_i64(&self) -> Option<i64> {
        match self { Json::I(i) => Some(*i), Json::F(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64), _ => None }
    }
    pub fn as_f64(&self) -> Option<f64> { match self { Json::I(i) => Some(*i as f64), Json::F(f) => Some(*f), _ => None } }
    pub fn as_arr(&self) -> Option<&Vec<Json>> { if let Json::Arr(a) = self { Some(a) } else { None } }
    pub fn as_obj(&self) -> Option<&Vec<(String, Json)>> { if let Json::Obj(a) = self { Some(a) } else { None } }
    pub fn is_null(&self) -> bool { matches!(self, Json::Null) }
    pub fn is_obj(&self) -> bool { matches!(self, Json::Obj(_)) }
    pub fn type_name(&self) -> &'static str {
        match self { Json::Null => "null", Json::Bool(_) => "boolean", Json::I(_) | Json::F(_) => "number", Json::Str(_) => "string", Json::Arr(_) => "array", Json::Obj(_) => "object" }
    }
    pub fn dump(&self) -> String { let mut s = String::new(); write_json(self, &mut s); s }
    pub fn pretty(&self) -> String { let mut s = String::new(); write_pretty(self, &mut s, 0); s }
}

impl From<&str> for Json { fn from(s: &str) -> Json { Json::Str(s.to_string()) } }
impl From<String> for Json { fn from(s: String) -> Json { Json::Str(s) } }
impl From<&String> for Json { fn from(s: &String) -> Json { Json::Str(s.clone()) } }
impl From<i64> for Json { fn from(i: i64) -> Json { Json::I(i) } }
impl From<i32> for Json { fn from(i: i32) -> Json { Json::I(i as i64) } }
impl From<usize> for Json { fn from(i: usize) -> Json { Json::I(i as i64) } }
impl From<u64> for Json { fn from(i: u64) -> Json { Json::I(i as i64) } }
impl From<f64> for Json { fn from(f: f64) -> Json { Json::F(f) } }
impl From<bool> for Json { fn from(b: bool) -> Json { Json::Bool(b) } }
impl From<Vec<Json>> for Json { fn from(v: Vec<Json>) -> Json { Json::Arr(v) } }
impl From<&Json> for Json { fn from(v: &Json) -> Json { v.clone() } }
impl<T: Into<Json>> From<Option<T>> for Json { fn from(o: Option<T>) -> Json { match o { Some(v) => v.into(), None => Json::Null } } }

#[macro_export]
macro_rules! obj {
    () => { $crate::json::Json::Obj(Vec::new()) };
    ($($k:expr => $v:expr),+ $(,)?) => {{
        let mut _v: Vec<(String, $crate::json::Json)> = Vec::new();
        $( _v.push(($k.to_string(), $crate::json::Json::from($v))); )+
        $crate::json::Json::Obj(_v)
    }};
}

fn esc(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn num(f: f64, out: &mut String) {
    if !f.is_finite() { out.push_str("null"); return; }
    if f.fract() == 0.0 && f.abs() < 1e15 { out.push_str(&format!("{}", f as i64)); return; }
    out.push_str(&format!("{}", f));
}

pub fn write_json(j: &Json, out: &mut String) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::I(i) => out.push_str(&i.to_string()),
        Json::F(f) => num(*f, out),
        Json::Str(s) => esc(s, out),
        Json::Arr(a) => { out.push('['); for (i, v) in a.iter().enumerate() { if i > 0 { out.push(','); } write_json(v, out); } out.push(']'); }
        Json::Obj(o) => { out.push('{'); for (i, (k, v)) in o.iter().enumerate() { if i > 0 { out.push(','); } esc(k, out); out.push(':'); write_json(v, out); } out.push('}'); }
    }
}

fn write_pretty(j: &Json, out: &mut String, ind: usize) {
    let pad = |n: usize, out: &mut String| { for _ in 0..n { out.push_str("  "); } };
    match j {
        Json::Arr(a) if !a.is_empty() => { out.push_str("[\n"); for (i, v) in a.iter().enumerate() { if i > 0 { out.push_str(",\n"); } pad(ind + 1, out); write_pretty(v, out, ind + 1); } out.push('\n'); pad(ind, out); out.push(']'); }
        Json::Obj(o) if !o.is_empty() => { out.push_str("{\n"); for (i, (k, v)) in o.iter().enumerate() { if i > 0 { out.push_str(",\n"); } pad(ind + 1, out); esc(k, out); out.push_str(": "); write_pretty(v, out, ind + 1); } out.push('\n'); pad(ind, out); out.push('}'); }
        _ => write_json(j, out),
    }
}

pub fn parse(s: &str) -> Result<Json, String> {
    let b = s.as_bytes();
    let mut p = P { b, i: 0, depth: 0 };
    p.ws();
    let v = p.val()?;
    p.ws();
    if p.i != b.len() { return Err(format!("unexpected trailing data at byte {}", p.i)); }
    Ok(v)
}

struct P<'a> { b: &'a [u8], i: usize, depth: usize }
impl<'a> P<'a> {
    fn ws(&mut self) { while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') { self.i += 1; } }
    fn err<T>(&self, m: &str) -> Result<T, String> { Err(format!("{} at byte {}", m, self.i)) }
    fn val(&mut self) -> Result<Json, String> {
        if self.i >= self.b.len() { return self.err("unexpected end of input"); }
        match self.b[self.i] {
            b'{' => {
                self.depth += 1; if self.depth > 64 { return self.err("nesting too deep"); }
                self.i += 1; let mut o: Vec<(String, Json)> = Vec::new(); self.ws();
                if self.i < self.b.len() && self.b[self.i] == b'}' { self.i += 1; self.depth -= 1; return Ok(Json::Obj(o)); }
                loop {
                    self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b'"' { return self.err("expected object key"); }
                    let k = self.string()?; self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b':' { return self.err("expected ':'"); }
                    self.i += 1; self.ws(); let v = self.val()?;
                    if let Some(e) = o.iter_mut().find(|(kk, _)| *kk == k) { e.1 = v; } else { o.push((k, v)); }
                    self.ws();
                    if self.i >= self.b.len() { return self.err("unexpected end of input"); }
                    match self.b[self.i] { b',' => { self.i += 1; } b'}' => { self.i += 1; break; } _ => return self.err("expected ',' or '}'") }
                }
                self.depth -= 1; Ok(Json::Obj(o))
            }
            b'[' => {
                self.depth += 1; if self.depth > 64 { return self.err("nesting too deep"); }
                self.i += 1; let mut a = Vec::new(); self.ws();
                if self.i < self.b.len() && self.b[self.i] == b']' { self.i += 1; self.depth -= 1; return Ok(Json::Arr(a)); }
                loop {
                    self.ws(); a.push(self.val()?); self.ws();
                    if self.i >= self.b.len() { return self.err("unexpected end of input"); }
                    match self.b[self.i] { b',' => { self.i += 1; } b']' => { self.i += 1; break; } _ => return self.err("expected ',' or ']'") }
                }
                self.depth -= 1; Ok(Json::Arr(a))
            }
            b'"' => Ok(Json::Str(self.string()?)),
            b't' => self.lit("true", Json::Bool(true)),
            b'f' => self.lit("false", Json::Bool(false)),
            b'n' => self.lit("null", Json::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.err("unexpected character"),
        }
    }
    fn lit(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.b[self.i..].starts_with(w.as_bytes()) { self.i += w.len(); Ok(v) } else { self.err("invalid literal") }
    }
    fn number(&mut self) -> Result<Json, String> {
        let st = self.i;
        if self.b[self.i] == b'-' { self.i += 1; }
        let ds = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
        if self.i == ds { return self.err("invalid number"); }
        if self.i - ds > 1 && self.b[ds] == b'0' { return self.err("leading zero in number"); }
        let mut float = false;
        if self.i < self.b.len() && self.b[self.i] == b'.' {
            float = true; self.i += 1; let fs = self.i;
            while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
            if self.i == fs { return self.err("invalid number"); }
        }
        if self.i < self.b.len() && (self.b[self.i] == b'e' || self.b[self.i] == b'E') {
            float = true; self.i += 1;
            if self.i < self.b.len() && (self.b[self.i] == b'+' || self.b[self.i] == b'-') { self.i += 1; }
            let es = self.i;
            while self.i < self.b.len() && self.b[self.i].is_ascii_digit() { self.i += 1; }
            if self.i == es { return self.err("invalid number"); }
        }
        let t = std::str::from_utf8(&self.b[st..self.i]).unwrap();
        if !float { if let Ok(i) = t.parse::<i64>() { return Ok(Json::I(i)); } }
        match t.parse::<f64>() { Ok(f) if f.is_finite() => Ok(Json::F(f)), _ => self.err("number out of range") }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        if self.i + 4 > self.b.len() { return self.err("bad unicode escape"); }
        let h = std::str::from_utf8(&self.b[self.i..self.i + 4]).map_err(|_| "bad escape".to_string())?;
        let v = u32::from_str_radix(h, 16).map_err(|_| format!("bad unicode escape at byte {}", self.i))?;
        self.i += 4; Ok(v)
    }
    fn string(&mut self) -> Result<String, String> {
        self.i += 1; let mut s = String::new();
        loop {
            if self.i >= self.b.len() { return self.err("unterminated string"); }
            let c = self.b[self.i];
            match c {
                b'"' => { self.i += 1; return Ok(s); }
                b'\\' => {
                    self.i += 1; if self.i >= self.b.len() { return self.err("unterminated string"); }
                    let e = self.b[self.i]; self.i += 1;
                    match e {
                        b'"' => s.push('"'), b'\\' => s.push('\\'), b'/' => s.push('/'), b'b' => s.push('\u{8}'),
                        b'f' => s.push('\u{c}'), b'n' => s.push('\n'), b'r' => s.push('\r'), b't' => s.push('\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp) {
                                if self.i + 2 <= self.b.len() && self.b[self.i] == b'\\' && self.b[self.i + 1] == b'u' {
                                    self.i += 2; let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) { return self.err("invalid surrogate pair"); }
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                } else { return self.err("lone surrogate"); }
                            } else if (0xDC00..0xE000).contains(&cp) { return self.err("lone surrogate"); }
                            match char::from_u32(cp) { Some(ch) => s.push(ch), None => return self.err("bad code point") }
                        }
                        _ => return self.err("bad escape"),
                    }
                }
                c if c < 0x20 => return self.err("control character in string"),
                _ => {
                    // copy a UTF-8 run
                    let st = self.i;
                    while self.i < self.b.len() && self.b[self.i] != b'"' && self.b[self.i] != b'\\' && self.b[self.i] >= 0x20 { self.i += 1; }
                    match std::str::from_utf8(&self.b[st..self.i]) { Ok(t) => s.push_str(t), Err(_) => return self.err("invalid UTF-8") }
                }
            }
        }
    }
}
