//! The browser client: one static page served by the server itself, so that
//! people can play with nothing installed (docs/BROWSER.md).
//!
//! The files live in `web/` beside `src/` and are compiled into the binary;
//! nothing is read from disk at run time. Every answer carries:
//! - the file's content type, and `X-Content-Type-Options: nosniff`;
//! - a strict `Content-Security-Policy`: scripts, styles and images from
//!   this server only (no inline code at all), WebSockets to this host only,
//!   no framing ([`content_security_policy`]);
//! - `Cache-Control: no-cache` with an `ETag` (a hash of the file, fixed
//!   when the binary is built): browsers revalidate every time and get a
//!   bodyless 304 while the file is unchanged, and a new binary's files are
//!   never mixed with an old one's.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

/// One embedded file.
struct Asset {
    body: &'static [u8],
    content_type: &'static str,
    /// FNV-1a of `body`, computed at compile time; the `ETag`.
    hash: u64,
}

impl Asset {
    const fn new(body: &'static [u8], content_type: &'static str) -> Asset {
        Asset {
            body,
            content_type,
            hash: fnv1a(body),
        }
    }
}

const INDEX: Asset = Asset::new(
    include_bytes!("../web/index.html"),
    "text/html; charset=utf-8",
);
const SCRIPT: Asset = Asset::new(
    include_bytes!("../web/app.js"),
    "text/javascript; charset=utf-8",
);
const LOBBY_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/lobby.js"),
    "text/javascript; charset=utf-8",
);
const COMMON_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/common.js"),
    "text/javascript; charset=utf-8",
);
const REPLAY_PAGE: Asset = Asset::new(
    include_bytes!("../web/replay.html"),
    "text/html; charset=utf-8",
);
const REPLAY_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/replay.js"),
    "text/javascript; charset=utf-8",
);
const ANALYSIS_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/analysis.js"),
    "text/javascript; charset=utf-8",
);
const QUICKPLAY_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/quickplay.js"),
    "text/javascript; charset=utf-8",
);
const LEADERBOARD_PAGE: Asset = Asset::new(
    include_bytes!("../web/leaderboard.html"),
    "text/html; charset=utf-8",
);
const LEADERBOARD_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/leaderboard.js"),
    "text/javascript; charset=utf-8",
);
// How to play (issue 23): the rules in short, in the page's languages.
const HOWTO_PAGE: Asset = Asset::new(
    include_bytes!("../web/how-to-play.html"),
    "text/html; charset=utf-8",
);
const HOWTO_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/how-to-play.js"),
    "text/javascript; charset=utf-8",
);
// The operators' console (issue 22): a page anyone may load, holding no
// data; it asks for the operators' token and calls /api/admin/... with it.
const ADMIN_PAGE: Asset = Asset::new(
    include_bytes!("../web/admin.html"),
    "text/html; charset=utf-8",
);
const ADMIN_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/admin.js"),
    "text/javascript; charset=utf-8",
);
// Web Push: the opt-in (issue 25), and the service worker that shows what
// is pushed.
const PUSH_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/push.js"),
    "text/javascript; charset=utf-8",
);
const SERVICE_WORKER: Asset = Asset::new(
    include_bytes!("../web/sw.js"),
    "text/javascript; charset=utf-8",
);
// Identity on every device (issue 23): links, devices, password, passkeys.
const DEVICES_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/devices.js"),
    "text/javascript; charset=utf-8",
);
const SOCIAL_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/social.js"),
    "text/javascript; charset=utf-8",
);
// The tutorial's prepared deal and script (issue 50), as the room plays it.
const TUTORIAL_SCRIPT: Asset = Asset::new(
    splendor_lobby::tutorial::SCRIPT_JSON.as_bytes(),
    "application/json",
);
// The tutorial's lessons on the page (issue 50).
const TUTORIAL_PAGE_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/tutorial.js"),
    "text/javascript; charset=utf-8",
);
// Friends (issue 50): follows, the friends' list, invites from it.
const FRIENDS_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/friends.js"),
    "text/javascript; charset=utf-8",
);
// The page's languages (docs/BROWSER.md, "Languages"): `t()` over Fluent,
// loaded after fluent-bundle.js and l10n.js.
const I18N_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/i18n.js"),
    "text/javascript; charset=utf-8",
);
// @fluent/bundle (web/vendor/README.md): words the page's messages.
const FLUENT_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/vendor/fluent-bundle.js"),
    "text/javascript; charset=utf-8",
);
// The page's words: the .ftl files as they are (l10n::page_l10n_script).
static L10N_SCRIPT: std::sync::LazyLock<Asset> = std::sync::LazyLock::new(|| {
    let body: &'static [u8] = crate::l10n::page_l10n_script().into_bytes().leak();
    Asset::new(body, "text/javascript; charset=utf-8")
});
// Motion: the other players' moves seen (issue 50); loaded before app.js.
const MOTION_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/motion.js"),
    "text/javascript; charset=utf-8",
);
const PAY_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/pay.js"),
    "text/javascript; charset=utf-8",
);
// The table (board, turn panel, players, result): loaded before app.js.
const TABLE_SCRIPT: Asset = Asset::new(
    include_bytes!("../web/table.js"),
    "text/javascript; charset=utf-8",
);
const TURN_ICON: Asset = Asset::new(include_bytes!("../web/icon-turn.svg"), "image/svg+xml");
const STYLE: Asset = Asset::new(include_bytes!("../web/app.css"), "text/css; charset=utf-8");
const ICON: Asset = Asset::new(include_bytes!("../web/icon.svg"), "image/svg+xml");
/// The rules the server enforces (R1..R13), which every error's `rule`
/// cites: served so that a player or bot author can read them (issue 24).
const RULES: Asset = Asset::new(
    include_bytes!("../../../docs/RULES.md"),
    "text/markdown; charset=utf-8",
);

/// The routes of the page and its files.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(async |h: HeaderMap| serve(&INDEX, &h)))
        // A link from another device (issue 23): the page, which reads
        // the code after `#` (never sent to the server with the page).
        .route("/link", get(async |h: HeaderMap| serve(&INDEX, &h)))
        .route(
            "/devices.js",
            get(async |h: HeaderMap| serve(&DEVICES_SCRIPT, &h)),
        )
        .route("/app.js", get(async |h: HeaderMap| serve(&SCRIPT, &h)))
        .route(
            "/lobby.js",
            get(async |h: HeaderMap| serve(&LOBBY_SCRIPT, &h)),
        )
        .route(
            "/common.js",
            get(async |h: HeaderMap| serve(&COMMON_SCRIPT, &h)),
        )
        .route("/pay.js", get(async |h: HeaderMap| serve(&PAY_SCRIPT, &h)))
        .route(
            "/motion.js",
            get(async |h: HeaderMap| serve(&MOTION_SCRIPT, &h)),
        )
        .route(
            "/table.js",
            get(async |h: HeaderMap| serve(&TABLE_SCRIPT, &h)),
        )
        .route(
            "/quickplay.js",
            get(async |h: HeaderMap| serve(&QUICKPLAY_SCRIPT, &h)),
        )
        // The leaderboard page (GET /api/leaderboard and /api/players/{id}).
        .route(
            "/leaderboard",
            get(async |h: HeaderMap| serve(&LEADERBOARD_PAGE, &h)),
        )
        .route(
            "/leaderboard.js",
            get(async |h: HeaderMap| serve(&LEADERBOARD_SCRIPT, &h)),
        )
        .route(
            "/how-to-play",
            get(async |h: HeaderMap| serve(&HOWTO_PAGE, &h)),
        )
        .route(
            "/how-to-play.js",
            get(async |h: HeaderMap| serve(&HOWTO_SCRIPT, &h)),
        )
        .route("/admin", get(async |h: HeaderMap| serve(&ADMIN_PAGE, &h)))
        .route(
            "/admin.js",
            get(async |h: HeaderMap| serve(&ADMIN_SCRIPT, &h)),
        )
        .route(
            "/push.js",
            get(async |h: HeaderMap| serve(&PUSH_SCRIPT, &h)),
        )
        // At the root, so that its scope is the whole page.
        .route(
            "/sw.js",
            get(async |h: HeaderMap| serve(&SERVICE_WORKER, &h)),
        )
        .route(
            "/social.js",
            get(async |h: HeaderMap| serve(&SOCIAL_SCRIPT, &h)),
        )
        .route(
            "/tutorial.js",
            get(async |h: HeaderMap| serve(&TUTORIAL_PAGE_SCRIPT, &h)),
        )
        .route(
            "/tutorial.json",
            get(async |h: HeaderMap| serve(&TUTORIAL_SCRIPT, &h)),
        )
        .route(
            "/friends.js",
            get(async |h: HeaderMap| serve(&FRIENDS_SCRIPT, &h)),
        )
        .route(
            "/i18n.js",
            get(async |h: HeaderMap| serve(&I18N_SCRIPT, &h)),
        )
        .route(
            "/fluent-bundle.js",
            get(async |h: HeaderMap| serve(&FLUENT_SCRIPT, &h)),
        )
        .route(
            "/l10n.js",
            get(async |h: HeaderMap| serve(&L10N_SCRIPT, &h)),
        )
        .route(
            "/icon-turn.svg",
            get(async |h: HeaderMap| serve(&TURN_ICON, &h)),
        )
        .route(
            "/replay.js",
            get(async |h: HeaderMap| serve(&REPLAY_SCRIPT, &h)),
        )
        .route(
            "/analysis.js",
            get(async |h: HeaderMap| serve(&ANALYSIS_SCRIPT, &h)),
        )
        // The replay pages: the list of past games and one game's viewer
        // (the script reads which from the path; an unknown id is its 404).
        .route("/games", get(async |h: HeaderMap| serve(&REPLAY_PAGE, &h)))
        .route(
            "/games/{id}",
            get(async |h: HeaderMap| serve(&REPLAY_PAGE, &h)),
        )
        .route("/app.css", get(async |h: HeaderMap| serve(&STYLE, &h)))
        .route("/icon.svg", get(async |h: HeaderMap| serve(&ICON, &h)))
        .route("/rules.md", get(async |h: HeaderMap| serve(&RULES, &h)))
}

/// The file, or a 304 when the browser's copy (`If-None-Match`) is current.
fn serve(asset: &Asset, request: &HeaderMap) -> Response {
    let etag = format!("\"{:016x}\"", asset.hash);
    let host = request.get(header::HOST).and_then(|v| v.to_str().ok());
    let csp = content_security_policy(host);
    let fresh = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*");
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        asset.body.into_response()
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Both come from checked ASCII, so the conversions cannot fail.
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// The policy for the page. `connect-src` names the WebSocket of the host
/// the page was loaded from (`ws://host` and `wss://host`, as the `Host`
/// header says) as well as `'self'`: older browsers do not let `'self'`
/// cover WebSockets. A `Host` that is not a plain `name[:port]` (an IPv6
/// literal, which CSP cannot express, or anything odd) gets `'self'` alone.
fn content_security_policy(host: Option<&str>) -> String {
    let sockets = match host.filter(|h| is_plain_host(h)) {
        Some(host) => format!(" ws://{host} wss://{host}"),
        None => String::new(),
    };
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
         connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'"
    )
}

/// `name[:port]` with a DNS-style name: letters, digits, dots and hyphens.
/// Anything else must not be pasted into a header.
fn is_plain_host(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let port_ok =
        port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    name_ok && port_ok
}

/// 64-bit FNV-1a: a fixed, dependency-free hash for the `ETag`.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_hosts_get_their_websocket_origins_in_the_policy() {
        let csp = content_security_policy(Some("play.example.org:8080"));
        assert!(
            csp.contains(
                "connect-src 'self' ws://play.example.org:8080 wss://play.example.org:8080;"
            ),
            "{csp}"
        );
        assert!(csp.starts_with("default-src 'self';"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    }

    #[test]
    fn odd_hosts_are_never_pasted_into_the_policy() {
        for host in [
            "[::1]:8080",
            "evil.org; script-src *",
            "a b",
            "",
            ":80",
            "host:",
            "host:123456",
            "host:8o",
        ] {
            let csp = content_security_policy(Some(host));
            assert!(csp.contains("connect-src 'self'; "), "{host:?}: {csp}");
        }
        assert!(content_security_policy(None).contains("connect-src 'self'; "));
    }

    #[test]
    fn the_etag_hash_is_fnv1a() {
        // The published FNV-1a test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
