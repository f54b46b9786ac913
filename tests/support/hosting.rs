//! For the hosting tests: a server over a prepared state, handshake
//! headers, pings and the metrics' text.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use crate::*;

impl TestServer {
    /// A server over a prepared state (to keep a handle on its lobby,
    /// metrics or shutdown switch).
    pub async fn start_with_state(state: splendor_server::AppState) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(splendor_server::serve(listener, state, async {
            let _ = rx.await;
        }));
        TestServer {
            addr,
            shutdown: Some(tx),
            task: Some(task),
        }
    }

    /// The value of one series of `/metrics`, e.g.
    /// `splendor_intents_rejected_total{code="not_your_turn"}` (0 if absent).
    pub async fn metric(&self, series: &str) -> f64 {
        let (status, body) = self.http_get("/metrics").await;
        assert_eq!(status, 200, "{body}");
        metric_value(&body, series)
    }

    /// Waits until `series` of `/metrics` reaches at least `value`, asking
    /// again every 10 ms; fails after 30 s.
    pub async fn wait_for_metric(&self, series: &str, value: f64) {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let now = self.metric(series).await;
            if now >= value {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{series} is {now}, never {value}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
}

/// The value of `series` in a metrics text (0 if absent).
pub fn metric_value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

impl TestClient {
    /// Connects with extra handshake headers (e.g. `Origin`). A refused
    /// handshake gives the HTTP status.
    pub async fn connect_with_headers(
        server: &TestServer,
        name: &str,
        headers: &[(&str, &str)],
    ) -> Result<TestClient, u16> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
        let mut request = server.ws_url().into_client_request().expect("request");
        for (key, value) in headers {
            request.headers_mut().insert(
                HeaderName::from_bytes(key.as_bytes()).expect("header name"),
                HeaderValue::from_str(value).expect("header value"),
            );
        }
        match tokio::time::timeout(SAFETY_TIMEOUT, connect_async(request))
            .await
            .expect("handshake in time")
        {
            Ok((ws, _)) => Ok(TestClient {
                name: name.to_owned(),
                ws,
                frames: Vec::new(),
                close: None,
                token: None,
                last_full: None,
                next_id: 1,
            }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(response.status().as_u16())
            }
            Err(e) => panic!("{name}: handshake failed: {e}"),
        }
    }

    /// Reads (and so answers) frames until `n` pings from the server arrived.
    pub async fn wait_for_pings(&mut self, n: usize) {
        let mut pings = 0;
        while pings < n {
            let frame = tokio::time::timeout(SAFETY_TIMEOUT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no ping within {SAFETY_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Ping(_))) => pings += 1,
                Some(Ok(Message::Text(text))) => self.frames.push(text.as_str().to_owned()),
                Some(Ok(Message::Close(frame))) => {
                    panic!("{}: closed while waiting for pings: {frame:?}", self.name)
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("{}: socket error {e}", self.name),
                None => panic!("{}: connection ended", self.name),
            }
        }
    }

    /// Sends raw text frames as fast as the socket takes them.
    pub async fn send_many(&mut self, texts: impl IntoIterator<Item = String>) {
        for text in texts {
            self.ws
                .feed(Message::Text(text.into()))
                .await
                .expect("send frame");
        }
        self.ws.flush().await.expect("flush");
    }
}
