//! The browser client's files (docs/BROWSER.md): served by the server itself
//! with their content types, a strict Content-Security-Policy, `nosniff`,
//! and revalidated caching.

use std::time::Duration;

use splendor_e2e::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An HTTP answer: status, headers (names lower-case) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    /// The one value of header `name`; fails the test if it is missing or repeated.
    fn header(&self, name: &str) -> &str {
        let values: Vec<&str> = self
            .headers
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(values.len(), 1, "header {name}: {:?}", self.headers);
        values[0]
    }
}

/// A plain HTTP/1.1 request with extra header lines; the server's answer.
async fn request(server: &TestServer, method: &str, path: &str, extra: &str) -> Answer {
    let mut stream = TcpStream::connect(server.addr()).await.expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\n{extra}Connection: close\r\n\r\n",
        server.addr()
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .expect("read");
    let raw = String::from_utf8(raw).expect("UTF-8 answer");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// Whether `html` has an attribute like ` onclick=`.
fn has_inline_handler(html: &str) -> bool {
    html.match_indices(" on").any(|(at, _)| {
        let rest = &html[at + 3..];
        let name_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        name_len > 0 && rest[name_len..].starts_with('=')
    })
}

async fn get(server: &TestServer, path: &str) -> Answer {
    request(server, "GET", path, "").await
}

#[tokio::test]
async fn the_page_and_its_files_are_served_with_their_types_and_security_headers() {
    let server = TestServer::start().await;
    let host = server.addr().to_string();
    for (path, content_type) in [
        ("/", "text/html; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/lobby.js", "text/javascript; charset=utf-8"),
        ("/common.js", "text/javascript; charset=utf-8"),
        ("/replay.js", "text/javascript; charset=utf-8"),
        ("/analysis.js", "text/javascript; charset=utf-8"),
        ("/social.js", "text/javascript; charset=utf-8"),
        // Friends and the tutorial (issue 50), and the tutorial's script.
        ("/friends.js", "text/javascript; charset=utf-8"),
        ("/tutorial.js", "text/javascript; charset=utf-8"),
        ("/tutorial.json", "application/json"),
        ("/devices.js", "text/javascript; charset=utf-8"),
        ("/link", "text/html; charset=utf-8"),
        ("/push.js", "text/javascript; charset=utf-8"),
        ("/sw.js", "text/javascript; charset=utf-8"),
        ("/pay.js", "text/javascript; charset=utf-8"),
        ("/table.js", "text/javascript; charset=utf-8"),
        ("/motion.js", "text/javascript; charset=utf-8"),
        ("/quickplay.js", "text/javascript; charset=utf-8"),
        ("/leaderboard.js", "text/javascript; charset=utf-8"),
        ("/leaderboard", "text/html; charset=utf-8"),
        ("/how-to-play", "text/html; charset=utf-8"),
        ("/how-to-play.js", "text/javascript; charset=utf-8"),
        ("/admin", "text/html; charset=utf-8"),
        ("/admin.js", "text/javascript; charset=utf-8"),
        ("/i18n.js", "text/javascript; charset=utf-8"),
        ("/l10n.js", "text/javascript; charset=utf-8"),
        ("/fluent-bundle.js", "text/javascript; charset=utf-8"),
        ("/icon-turn.svg", "image/svg+xml"),
        ("/rules.md", "text/markdown; charset=utf-8"),
        ("/games", "text/html; charset=utf-8"),
        (
            "/games/0123456789abcdef0123456789abcdef",
            "text/html; charset=utf-8",
        ),
        ("/app.css", "text/css; charset=utf-8"),
        ("/icon.svg", "image/svg+xml"),
    ] {
        let answer = get(&server, path).await;
        assert_eq!(answer.status, 200, "{path}");
        assert_eq!(answer.header("content-type"), content_type, "{path}");
        assert_eq!(answer.header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(answer.header("cache-control"), "no-cache", "{path}");
        assert_eq!(answer.header("x-frame-options"), "DENY", "{path}");
        let csp = answer.header("content-security-policy");
        let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
        for expected in [
            "default-src 'self'".to_owned(),
            "script-src 'self'".to_owned(),
            "style-src 'self'".to_owned(),
            format!("connect-src 'self' ws://{host} wss://{host}"),
            "object-src 'none'".to_owned(),
            "frame-ancestors 'none'".to_owned(),
        ] {
            assert!(directives.contains(&expected.as_str()), "{path}: {csp}");
        }
        // Nothing in the policy lets inline code or other sites in.
        assert!(!csp.contains("unsafe"), "{csp}");
        assert!(!csp.contains('*'), "{csp}");
        let etag = answer.header("etag");
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && etag.len() == 18,
            "{etag}"
        );
        assert!(!answer.body.is_empty(), "{path}");
    }
}

#[tokio::test]
async fn the_page_loads_only_its_own_files_and_builds_no_html_from_strings() {
    let server = TestServer::start().await;
    let page = get(&server, "/").await.body;
    assert!(
        page.contains(r#"<script src="/app.js" defer></script>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<link rel="stylesheet" href="/app.css">"#),
        "{page}"
    );
    // The policy forbids inline code, so the pages must have none.
    assert_eq!(page.matches("<script").count(), 15, "{page}");
    let replay_page = get(&server, "/games").await.body;
    assert_eq!(replay_page.matches("<script").count(), 6, "{replay_page}");
    let board_page = get(&server, "/leaderboard").await.body;
    assert_eq!(board_page.matches("<script").count(), 6, "{board_page}");
    let howto_page = get(&server, "/how-to-play").await.body;
    assert_eq!(howto_page.matches("<script").count(), 5, "{howto_page}");
    // The operators' console (issue 22): loaded by anyone, holding no data.
    let admin_page = get(&server, "/admin").await.body;
    assert_eq!(admin_page.matches("<script").count(), 5, "{admin_page}");
    for page in [&page, &replay_page, &board_page, &howto_page, &admin_page] {
        assert!(!page.contains("style="), "{page}");
        assert!(!has_inline_handler(page), "{page}");
        assert_eq!(
            page.matches("<script src=\"/").count(),
            page.matches("<script").count(),
            "{page}"
        );
    }
    // People without JavaScript are told where the protocol is.
    assert!(page.contains("/ws"), "{page}");

    let script = get(&server, "/app.js").await.body;
    // Server text (player names, chat) must reach the page as text only.
    for path in [
        "/app.js",
        "/lobby.js",
        "/common.js",
        "/social.js",
        "/friends.js",
        "/tutorial.js",
        "/devices.js",
        "/push.js",
        "/sw.js",
        "/pay.js",
        "/table.js",
        "/motion.js",
        "/replay.js",
        "/analysis.js",
        "/quickplay.js",
        "/leaderboard.js",
        "/how-to-play.js",
        "/admin.js",
        "/i18n.js",
        "/l10n.js",
        "/fluent-bundle.js",
    ] {
        let body = get(&server, path).await.body;
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!body.contains(sink), "{path} uses {sink}");
        }
    }
    // The WebSocket is the page's own host, and the moves come from the server.
    assert!(script.contains("${location.host}/ws"), "socket URL");
    assert!(script.contains("legal_actions"), "legal actions");
    assert!(script.contains("expect_version"), "expect_version");
}

#[tokio::test]
async fn an_unchanged_file_is_revalidated_with_a_bodyless_304() {
    let server = TestServer::start().await;
    for path in ["/", "/app.js", "/lobby.js", "/app.css"] {
        let first = get(&server, path).await;
        let etag = first.header("etag").to_owned();

        let again = request(&server, "GET", path, &format!("If-None-Match: {etag}\r\n")).await;
        assert_eq!(again.status, 304, "{path}");
        assert_eq!(again.header("etag"), etag, "{path}");
        assert_eq!(again.header("cache-control"), "no-cache", "{path}");
        assert!(again.body.is_empty(), "{path}: {}", again.body);

        // One of several tags, or a weak form of it, matches too.
        let listed = format!("If-None-Match: \"0\", W/{etag}\r\n");
        assert_eq!(request(&server, "GET", path, &listed).await.status, 304);

        // Another tag (an older binary's file) gets the whole file.
        let stale = request(
            &server,
            "GET",
            path,
            "If-None-Match: \"0123456789abcdef\"\r\n",
        )
        .await;
        assert_eq!(stale.status, 200, "{path}");
        assert_eq!(stale.body, first.body, "{path}");
    }
    // HEAD answers the headers without the body.
    let head = request(&server, "HEAD", "/app.js", "").await;
    assert_eq!(head.status, 200);
    assert_eq!(
        head.header("content-type"),
        "text/javascript; charset=utf-8"
    );
    assert!(head.body.is_empty());
}

#[tokio::test]
async fn an_odd_host_header_is_not_copied_into_the_policy() {
    let server = TestServer::start().await;
    let mut stream = TcpStream::connect(server.addr()).await.expect("connect");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: a.example; script-src *\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .expect("read");
    let raw = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    let csp_line = raw
        .lines()
        .find(|l| l.starts_with("content-security-policy:"))
        .unwrap_or_default()
        .to_owned();
    // Either the server refuses the request outright, or the policy keeps
    // only 'self' for sockets.
    if raw.starts_with("http/1.1 200") {
        assert!(csp_line.contains("connect-src 'self';"), "{csp_line}");
    }
    assert!(!csp_line.contains("a.example"), "{csp_line}");
}

/// Issue 24: every rule an error's `rule` can cite is in the rules the
/// server serves at /rules.md (docs/RULES.md), so someone who only cloned
/// the project, or only talks to the server, can read it.
#[tokio::test]
async fn every_rule_an_error_cites_is_in_the_served_rules() {
    let server = TestServer::start().await;
    let rules = get(&server, "/rules.md").await.body;
    for rule in splendor_rules::REFUSAL_RULES {
        // "R4.1" is written "- R4.1 ..." (a section "R2" as "## R2 ...").
        let listed =
            rules.contains(&format!("- {rule} ")) || rules.contains(&format!("## {rule} "));
        assert!(listed, "{rule} is not in docs/RULES.md");
    }
    assert!(
        rules.contains("R12.5") && rules.contains("R13.2"),
        "the rules are current"
    );
}

/// Issue 23: `--public-url` is said in `welcome` (without a trailing
/// slash), so that the page's room links are ones a friend can open; a
/// server without one says nothing.
#[tokio::test]
async fn welcome_says_the_public_url_when_the_host_set_one() {
    let server = TestServer::start_with(splendor_server::Config {
        public_url: Some("https://splendor.example.org/".into()),
        ..splendor_server::Config::default()
    })
    .await;
    let mut ann = splendor_e2e::TestClient::connect(&server, "ann").await;
    let welcome = ann.hello().await;
    assert_eq!(
        welcome.public_url.as_deref(),
        Some("https://splendor.example.org")
    );
    let plain = TestServer::start().await;
    let mut bob = splendor_e2e::TestClient::connect(&plain, "bob").await;
    assert_eq!(bob.hello().await.public_url, None);
}
