//! Test support shared by the browser end-to-end test and by `cargo xtask serve`.
//!
//! The main piece is [`serve_dir`], a small static file server for the built app (`dist/`).
//! Both the developer server and the end-to-end test use the same code on purpose: the test
//! then exercises exactly what a developer sees, including the MIME types (browsers refuse to
//! compile WebAssembly streamed with the wrong `Content-Type`) and the Content-Security-Policy
//! (a policy that blocks the app's loader would leave a blank page, and only a real browser
//! notices).
//!
//! The server is deliberately tiny: one background thread answering requests one after another,
//! which is plenty for a handful of files on loopback, and no async runtime, so that `xtask`,
//! which depends on this library, stays quick to build.
//!
//! With the `e2e` feature, [`browser`] starts chromedriver and opens headless Chromium sessions
//! for the browser tests.
//!
//! [`axiomatic`] is an axiomatic checker for litmus tests, independent of the engine, against
//! which the engine's relaxed exploration is tested.

pub mod axiomatic;
#[cfg(feature = "e2e")]
pub mod browser;

use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::fs;
use std::io;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

/// The Content-Security-Policy sent with every response, before any script hashes are added.
///
/// It allows only the page's own origin, and of that only what the app uses:
/// - scripts from the page's origin, plus `'wasm-unsafe-eval'`, which lets the page compile
///   WebAssembly without allowing JavaScript `eval`; no inline script except the loader Trunk
///   writes, allowed by hash ([`content_security_policy`]);
/// - workers (the exploration workers, `explore-worker.js`, which import the page's glue and
///   instantiate its module) from the page's origin only;
/// - `connect-src 'self'` for fetching the `.wasm` modules;
/// - styles from the stylesheet, plus inline styles (`'unsafe-inline'` in `style-src` only),
///   because Yew sets `style` attributes (lane positions, pane sizes) and the editor injects
///   its theme as `<style>` elements; styles cannot run code;
/// - images from the page's origin and `data:` URLs (the editor draws some marks with inline
///   SVG); downloads use `blob:` object URLs, but as link targets, which `img-src` does not
///   govern;
/// - no plugins (`object-src 'none'`), no `<base>` (`base-uri 'none'`), no form submissions
///   (`form-action 'none'`);
/// - framing by any page (`frame-ancestors *`): the embeddable mode (`?embed=1`) exists so that
///   course pages on other sites can show a live example in an iframe. Framing is safe to allow
///   because the page has no account, no server-side state and no action a hidden frame could
///   trick a click into: what it keeps is the visitor's own inputs in their own storage.
pub const BASE_CSP: &[(&str, &str)] = &[
    ("default-src", "'self'"),
    ("script-src", "'self' 'wasm-unsafe-eval'"),
    ("style-src", "'self' 'unsafe-inline'"),
    ("img-src", "'self' data:"),
    ("worker-src", "'self'"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'none'"),
    ("frame-ancestors", "*"),
];

/// Returns the Content-Security-Policy for an HTML page: [`BASE_CSP`], with a `'sha256-…'`
/// source in `script-src` for every inline script of `html`.
///
/// Trunk writes the code that loads the wasm module as an inline `<script type="module">` in
/// `index.html`, and its content (file names with content hashes) changes with every build.
/// Hashing the page as it is served keeps the policy strict (no `'unsafe-inline'`) while always
/// matching the current build, with no post-processing step that could be forgotten.
pub fn content_security_policy(html: &str) -> String {
    let hashes: Vec<String> = inline_scripts(html)
        .into_iter()
        .map(|script| {
            // Browsers hash the script's text after the HTML parser has turned every CR LF and
            // lone CR into LF.
            let text = script.replace("\r\n", "\n").replace('\r', "\n");
            let digest = Sha256::digest(text.as_bytes());
            format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(digest))
        })
        .collect();
    BASE_CSP
        .iter()
        .map(|(directive, sources)| {
            if *directive == "script-src" && !hashes.is_empty() {
                format!("{directive} {sources} {}", hashes.join(" "))
            } else {
                format!("{directive} {sources}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Returns the exact text of every `<script>` element of `html` that has no `src` attribute.
///
/// Browsers hash the element's text byte for byte, so nothing is trimmed. This is a scanner, not
/// an HTML parser: it is meant for generated pages such as Trunk's, where attribute values do
/// not contain `>` and script text does not contain `</script`.
pub fn inline_scripts(html: &str) -> Vec<&str> {
    // ASCII lowercasing keeps byte offsets, so positions found in `lower` index `html` too.
    let lower = html.to_ascii_lowercase();
    let mut scripts = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find("<script") {
        let tag_start = from + found;
        let after_name = tag_start + "<script".len();
        // `<scripts>` or `<script-x>` would be other elements.
        match lower.as_bytes().get(after_name) {
            Some(b'>') | Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') | Some(b'/') => {}
            _ => {
                from = after_name;
                continue;
            }
        }
        let Some(tag_len) = lower[after_name..].find('>') else {
            break;
        };
        let body_start = after_name + tag_len + 1;
        let attributes = &lower[after_name..body_start - 1];
        let Some(body_len) = lower[body_start..].find("</script") else {
            break;
        };
        let body_end = body_start + body_len;
        if !has_attribute(attributes, "src") {
            scripts.push(&html[body_start..body_end]);
        }
        from = body_end;
    }
    scripts
}

/// Whether an opening tag's attribute text (already lowercased) has attribute `name`.
fn has_attribute(attributes: &str, name: &str) -> bool {
    let bytes = attributes.as_bytes();
    attributes.match_indices(name).any(|(at, _)| {
        let starts_name = at == 0 || bytes[at - 1].is_ascii_whitespace();
        let ends_name = bytes.get(at + name.len()).is_none_or(|b| b.is_ascii_whitespace() || *b == b'=' || *b == b'/');
        starts_name && ends_name
    })
}

/// The `Content-Type` for a file, by extension. Unknown types are sent as opaque bytes.
pub fn mime_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).unwrap_or_default();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "cl" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A running static file server. Dropping it stops the server.
pub struct ServerHandle {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The address the server is bound to, with the real port if port 0 was asked for.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port the server is bound to.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The URL of the served directory's root, such as `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops the server and waits for its thread to finish.
    pub fn stop(self) {
        // Drop does the work; this method makes the intent explicit at call sites.
    }

    /// Blocks the calling thread for as long as the server runs, which is until the process is
    /// interrupted: this is what a command-line server wants after printing its URL.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves the files under `dir` over HTTP on `addr` (such as `127.0.0.1:0`) from a background
/// thread, until the returned handle is dropped.
///
/// `/` and directories are answered with their `index.html`. Every response carries the
/// Content-Security-Policy ([`content_security_policy`] for HTML pages, [`BASE_CSP`] otherwise),
/// `X-Content-Type-Options: nosniff` so that browsers trust only the declared type, and
/// `Cache-Control: no-cache` so that a rebuilt app is always picked up.
pub fn serve_dir(dir: &Path, addr: &str) -> io::Result<ServerHandle> {
    let root = dir.canonicalize().map_err(|e| io::Error::new(e.kind(), format!("cannot serve {}: {e}", dir.display())))?;
    let server = tiny_http::Server::http(addr).map_err(|e| io::Error::new(io::ErrorKind::AddrNotAvailable, format!("cannot listen on {addr}: {e}")))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| io::Error::new(io::ErrorKind::AddrNotAvailable, format!("{addr} is not an IP address")))?;
    let server = Arc::new(server);
    let thread = {
        let server = Arc::clone(&server);
        std::thread::Builder::new().name(format!("serve {}", root.display())).spawn(move || {
            for request in server.incoming_requests() {
                let response = respond_to(&root, request.method(), request.url());
                // A client that hung up is not the server's problem.
                let _ = request.respond(response);
            }
        })?
    };
    Ok(ServerHandle { server, addr, thread: Some(thread) })
}

type Response = tiny_http::Response<io::Cursor<Vec<u8>>>;

/// Builds the response for one request; kept free of I/O on the socket so it is easy to test.
fn respond_to(root: &Path, method: &tiny_http::Method, url: &str) -> Response {
    use tiny_http::Method;
    if !matches!(method, Method::Get | Method::Head) {
        return plain(405, "method not allowed\n").with_header(header("Allow", "GET, HEAD"));
    }
    let Some(path) = resolve(root, url) else {
        return plain(404, "not found\n");
    };
    let Ok(body) = fs::read(&path) else {
        return plain(404, "not found\n");
    };
    let content_type = mime_type(&path);
    let csp = if content_type.starts_with("text/html") { content_security_policy(&String::from_utf8_lossy(&body)) } else { base_csp() };
    Response::from_data(body)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Content-Security-Policy", &csp))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Cache-Control", "no-cache"))
}

/// Maps a request target to a file under `root`, or `None` if it names nothing servable.
///
/// Only normal path components are accepted, so `..` can never climb out of `root`; the final
/// canonical path is checked against `root` as well, so a symbolic link cannot either.
fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    let mut file = root.to_path_buf();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => file.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let file = file.canonicalize().ok()?;
    (file.starts_with(root) && file.is_file()).then_some(file)
}

/// Decodes `%XX` escapes; `None` for malformed escapes, non-UTF-8 results or NUL bytes.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    if out.contains(&0) {
        return None;
    }
    String::from_utf8(out).ok()
}

fn base_csp() -> String {
    content_security_policy("")
}

fn plain(status: u16, text: &str) -> Response {
    Response::from_data(text.as_bytes().to_vec())
        .with_status_code(status)
        .with_header(header("Content-Type", "text/plain; charset=utf-8"))
        .with_header(header("Content-Security-Policy", &base_csp()))
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("header names and values here are ASCII without line breaks")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    #[test]
    fn csp_hash_matches_the_browser_example() {
        // The example from the CSP specification: `alert('Hello, world.');` hashes to this.
        let html = "<html><script>alert('Hello, world.');</script></html>";
        let csp = content_security_policy(html);
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"), "{csp}");
    }

    #[test]
    fn csp_hash_ignores_carriage_returns() {
        assert_eq!(content_security_policy("<script>a();\r\nb();\r</script>"), content_security_policy("<script>a();\nb();\n</script>"));
    }

    #[test]
    fn only_inline_scripts_are_hashed() {
        let html = r#"<head>
<script type="module" src="/app.js"></script>
<SCRIPT type="module">
import init from '/app.js';
await init();
</SCRIPT><scripts>not a script</scripts>
<script data-src="x">one()</script>
</head>"#;
        let scripts = inline_scripts(html);
        assert_eq!(scripts, vec!["\nimport init from '/app.js';\nawait init();\n", "one()"]);
        assert!(inline_scripts("<p>no scripts</p>").is_empty());
        assert_eq!(content_security_policy("<p></p>"), base_csp());
        assert!(!base_csp().contains("sha256"));
        assert!(base_csp().starts_with("default-src 'self'; script-src 'self' 'wasm-unsafe-eval';"));
    }

    #[test]
    fn mime_types_cover_the_built_app() {
        assert_eq!(mime_type(Path::new("a_bg.wasm")), "application/wasm");
        assert!(mime_type(Path::new("a.js")).starts_with("text/javascript"));
        assert!(mime_type(Path::new("index.HTML")).starts_with("text/html"));
        assert!(mime_type(Path::new("s.css")).starts_with("text/css"));
        assert_eq!(mime_type(Path::new("i.svg")), "image/svg+xml");
        assert_eq!(mime_type(Path::new("d.json")), "application/json");
        assert_eq!(mime_type(Path::new("p.png")), "image/png");
        assert_eq!(mime_type(Path::new("noextension")), "application/octet-stream");
    }

    #[test]
    fn percent_decoding_rejects_malformed_input() {
        assert_eq!(percent_decode("/a%20b.js").as_deref(), Some("/a b.js"));
        assert_eq!(percent_decode("/%2e%2e/x").as_deref(), Some("/../x"));
        assert_eq!(percent_decode("/%zz"), None);
        assert_eq!(percent_decode("/%2"), None);
        assert_eq!(percent_decode("/%00"), None);
    }

    /// A fresh directory under the system's temporary directory, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("interleave-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(dir.join("assets")).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// Sends one HTTP/1.0 request and returns the status line, lowercased headers and body.
    fn get(server: &ServerHandle, method: &str, target: &str) -> (String, Vec<(String, String)>, Vec<u8>) {
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        write!(stream, "{method} {target} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("end of headers");
        let head = String::from_utf8(raw[..split].to_vec()).unwrap();
        let body = raw[split + 4..].to_vec();
        let mut lines = head.lines();
        let status = lines.next().unwrap().to_string();
        let headers = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
        (status, headers, body)
    }

    fn header_value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
        headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    #[test]
    fn serves_files_with_types_and_policy() {
        let scratch = Scratch::new("serve");
        let index = "<!doctype html><script type=\"module\">import('/app.js')</script>";
        fs::write(scratch.0.join("index.html"), index).unwrap();
        fs::write(scratch.0.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        fs::write(scratch.0.join("assets/app.js"), "export {}").unwrap();
        let server = serve_dir(&scratch.0, "127.0.0.1:0").unwrap();
        assert_ne!(server.port(), 0);
        assert_eq!(server.url(), format!("http://127.0.0.1:{}/", server.port()));

        let (status, headers, body) = get(&server, "GET", "/");
        assert!(status.contains(" 200"), "{status}");
        assert_eq!(body, index.as_bytes());
        assert_eq!(header_value(&headers, "content-type"), Some("text/html; charset=utf-8"));
        let csp = header_value(&headers, "content-security-policy").unwrap();
        assert_eq!(csp, content_security_policy(index));
        assert!(csp.contains("'sha256-"), "{csp}");
        assert_eq!(header_value(&headers, "x-content-type-options"), Some("nosniff"));

        let (status, headers, body) = get(&server, "GET", "/app_bg.wasm?v=1");
        assert!(status.contains(" 200"), "{status}");
        assert_eq!(header_value(&headers, "content-type"), Some("application/wasm"));
        assert_eq!(body, b"\0asm\x01\0\0\0");

        let (_, headers, _) = get(&server, "GET", "/assets/app.js");
        assert_eq!(header_value(&headers, "content-type"), Some("text/javascript; charset=utf-8"));

        let (status, _, body) = get(&server, "HEAD", "/index.html");
        assert!(status.contains(" 200"), "{status}");
        assert!(body.is_empty());

        for missing in ["/nothing.js", "/../Cargo.toml", "/assets/%2e%2e/%2e%2e/x", "/%zz"] {
            let (status, _, _) = get(&server, "GET", missing);
            assert!(status.contains(" 404"), "{missing}: {status}");
        }
        let (status, _, _) = get(&server, "POST", "/");
        assert!(status.contains(" 405"), "{status}");
        server.stop();
    }

    #[test]
    fn stopping_frees_the_port() {
        let scratch = Scratch::new("stop");
        let server = serve_dir(&scratch.0, "127.0.0.1:0").unwrap();
        let addr = server.addr();
        server.stop();
        // tiny_http closes its listening socket from its accept thread, shortly after the
        // server is dropped; binding the same address again proves the listener is gone.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while let Err(error) = std::net::TcpListener::bind(addr) {
            assert!(std::time::Instant::now() < deadline, "port still taken after stop: {error}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    #[test]
    fn a_missing_directory_is_an_error() {
        let error = serve_dir(Path::new("/nonexistent/interleave/dist"), "127.0.0.1:0").err().unwrap();
        assert!(error.to_string().contains("cannot serve"), "{error}");
    }
}
