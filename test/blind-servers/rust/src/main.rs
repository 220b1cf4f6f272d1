mod json;
mod util;
mod http;
mod state;
mod api;
mod api14;
mod workspace;
mod openapi;

use std::net::TcpListener;
use std::sync::{Arc, Mutex};

fn main() {
    let port: u16 = std::env::args().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    let listener = match TcpListener::bind(("127.0.0.1", port)) { Ok(l) => l, Err(e) => { eprintln!("cannot bind 127.0.0.1:{}: {}", port, e); std::process::exit(1); } };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    std::panic::set_hook(Box::new(|info| { eprintln!("handler panic (answered 400): {}", info); }));
    let _ = openapi::document(); // validate schema text at startup
    let (st, tokens, fx) = state::seed();
    let admin = tokens.iter().find(|(n, _)| n == "admin").map(|(_, t)| t.clone()).unwrap();
    let mut tj = json::Json::obj();
    for (n, t) in &tokens { tj.set(n, json::Json::Str(t.clone())); }
    let line = obj! {"baseUrl" => format!("http://127.0.0.1:{}", port), "token" => admin, "tokens" => tj,
        "fixtures" => obj!{"mutableDeploymentId" => fx.mutable, "workbookLimitDeploymentId" => fx.limit, "scopedDeploymentId" => fx.scoped}};
    println!("{}", line.dump().replace("\\/", "/"));
    use std::io::Write;
    let _ = std::io::stdout().flush();
    eprintln!("listening on 127.0.0.1:{}", port);
    let state = Arc::new(Mutex::new(st));
    for conn in listener.incoming() {
        match conn {
            Ok(s) => {
                let st = state.clone();
                std::thread::spawn(move || { http::serve_conn(s, &|req| api::handle(&st, req)); });
            }
            Err(e) => eprintln!("accept error: {}", e),
        }
    }
}
