use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}
impl Request {
    pub fn header(&self, n: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.as_str())
    }
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub chunked: bool,
}
impl Response {
    pub fn new(status: u16, ctype: &str, body: Vec<u8>) -> Response {
        Response { status, headers: vec![("CONTENT-TYPE".into(), ctype.into())], body, chunked: false }
    }
    pub fn header(mut self, k: &str, v: &str) -> Response { self.headers.push((k.to_ascii_uppercase(), v.to_string())); self }
}

pub const MAX_BODY: usize = 1 << 20;

pub fn reason(s: u16) -> &'static str {
    match s {
        100 => "Continue", 200 => "OK", 201 => "Created", 202 => "Accepted", 204 => "No Content",
        400 => "Bad Request", 401 => "Unauthorized", 403 => "Forbidden", 404 => "Not Found", 405 => "Method Not Allowed",
        409 => "Conflict", 411 => "Length Required", 413 => "Payload Too Large", 422 => "Unprocessable Entity", 431 => "Request Header Fields Too Large",
        500 => "Internal Server Error", 501 => "Not Implemented", 505 => "HTTP Version Not Supported", _ => "Status",
    }
}

fn read_line(r: &mut BufReader<TcpStream>, limit: usize) -> Result<Option<String>, u16> {
    let mut buf = Vec::new();
    let mut lim = r.by_ref().take(limit as u64);
    match lim.read_until(b'\n', &mut buf) {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(_) => return Ok(None),
    }
    if !buf.ends_with(b"\n") { return if buf.len() >= limit { Err(431) } else { Ok(None) }; }
    buf.pop(); if buf.ends_with(b"\r") { buf.pop(); }
    match String::from_utf8(buf) { Ok(s) => Ok(Some(s)), Err(_) => Err(400) }
}

fn err_resp(status: u16, msg: &str) -> Response {
    let b = crate::obj! {"error" => msg, "statusCode" => status as i64}.dump().into_bytes();
    Response::new(status, crate::api::JSON_CT, b)
}

pub fn write_response(w: &mut TcpStream, resp: &Response, head_only: bool, keep: bool) -> std::io::Result<()> {
    let mut h = format!("HTTP/1.1 {} {}\r\n", resp.status, reason(resp.status));
    for (k, v) in &resp.headers { h.push_str(&format!("{}: {}\r\n", k, v)); }
    h.push_str(&format!("DATE: {}\r\n", crate::util::http_date(crate::util::now_ms())));
    h.push_str(if keep { "CONNECTION: keep-alive\r\n" } else { "CONNECTION: close\r\n" });
    if resp.chunked && !head_only {
        h.push_str("TRANSFER-ENCODING: chunked\r\n\r\n");
        let mut out = h.into_bytes();
        for c in resp.body.chunks(4096) {
            out.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes()); out.extend_from_slice(c); out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
        w.write_all(&out)?;
    } else {
        if resp.status != 204 { h.push_str(&format!("CONTENT-LENGTH: {}\r\n", resp.body.len())); }
        h.push_str("\r\n");
        let mut out = h.into_bytes();
        if !head_only && resp.status != 204 { out.extend_from_slice(&resp.body); }
        w.write_all(&out)?;
    }
    w.flush()
}

pub fn serve_conn(stream: TcpStream, handler: &dyn Fn(&Request) -> Response) {
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(75)));
    let _ = stream.set_nodelay(true);
    let mut wr = match stream.try_clone() { Ok(s) => s, Err(_) => return };
    let mut r = BufReader::new(stream);
    loop {
        // request line (skip stray empty lines)
        let line = loop {
            match read_line(&mut r, 16384) {
                Ok(Some(l)) if l.is_empty() => continue,
                Ok(Some(l)) => break l,
                Ok(None) => return,
                Err(s) => { let _ = write_response(&mut wr, &err_resp(s, "malformed request line"), false, false); return; }
            }
        };
        let parts: Vec<&str> = line.split(' ').collect();
        if parts.len() != 3 || !parts[2].starts_with("HTTP/1.") || parts[0].is_empty() || !parts[0].bytes().all(|c| c.is_ascii_uppercase()) {
            let _ = write_response(&mut wr, &err_resp(400, "malformed request line"), false, false); return;
        }
        let method = parts[0].to_string();
        let target = parts[1].to_string();
        let http10 = parts[2] == "HTTP/1.0";
        let mut headers = Vec::new();
        let mut total = 0usize;
        loop {
            match read_line(&mut r, 16384) {
                Ok(Some(l)) => {
                    if l.is_empty() { break; }
                    total += l.len();
                    if total > 65536 { let _ = write_response(&mut wr, &err_resp(431, "headers too large"), false, false); return; }
                    match l.find(':') {
                        Some(i) => headers.push((l[..i].trim().to_string(), l[i + 1..].trim().to_string())),
                        None => { let _ = write_response(&mut wr, &err_resp(400, "malformed header line"), false, false); return; }
                    }
                }
                Ok(None) => return,
                Err(s) => { let _ = write_response(&mut wr, &err_resp(s, "malformed header"), false, false); return; }
            }
        }
        let hv = |n: &str| headers.iter().find(|(k, _): &&(String, String)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.clone());
        let conn_h = hv("connection").unwrap_or_default().to_ascii_lowercase();
        let mut keep = if http10 { conn_h.contains("keep-alive") } else { !conn_h.contains("close") };
        if hv("expect").map(|v| v.eq_ignore_ascii_case("100-continue")).unwrap_or(false) {
            let _ = wr.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let mut body = Vec::new();
        let te = hv("transfer-encoding").unwrap_or_default().to_ascii_lowercase();
        if te.contains("chunked") {
            loop {
                let sz = match read_line(&mut r, 1024) { Ok(Some(l)) => l, _ => { let _ = write_response(&mut wr, &err_resp(400, "bad chunked body"), false, false); return; } };
                let sz_s = sz.split(';').next().unwrap_or("").trim();
                let n = match usize::from_str_radix(sz_s, 16) { Ok(n) => n, Err(_) => { let _ = write_response(&mut wr, &err_resp(400, "bad chunk size"), false, false); return; } };
                if n == 0 {
                    loop { match read_line(&mut r, 16384) { Ok(Some(l)) if !l.is_empty() => continue, _ => break } }
                    break;
                }
                if body.len() + n > MAX_BODY { let _ = write_response(&mut wr, &err_resp(413, "request body larger than 1 MiB"), false, false); return; }
                let mut chunk = vec![0u8; n];
                if r.read_exact(&mut chunk).is_err() { return; }
                body.extend_from_slice(&chunk);
                let _ = read_line(&mut r, 16);
            }
        } else if let Some(cl) = hv("content-length") {
            let n: usize = match cl.trim().parse() { Ok(n) => n, Err(_) => { let _ = write_response(&mut wr, &err_resp(400, "invalid Content-Length"), false, false); return; } };
            if n > MAX_BODY {
                let _ = write_response(&mut wr, &err_resp(413, "request body larger than 1 MiB"), false, false); return;
            }
            body = vec![0u8; n];
            if r.read_exact(&mut body).is_err() { return; }
        }
        let (path, query) = match target.find('?') { Some(i) => (target[..i].to_string(), target[i + 1..].to_string()), None => (target.clone(), String::new()) };
        let req = Request { method: method.clone(), path, query, headers, body };
        let head = method == "HEAD";
        let resp = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&req))) {
            Ok(r) => r,
            Err(_) => err_resp(400, "the request could not be processed"),
        };
        if resp.chunked { keep = keep && !http10; }
        if write_response(&mut wr, &resp, head, keep).is_err() { return; }
        if !keep { return; }
    }
}
