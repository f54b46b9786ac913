//! One WebSocket client of the soak, claiming a client address with
//! `X-Forwarded-For` as HAProxy adds it (the server runs with
//! `SPLENDOR_CLIENT_IP_HEADER`), and a bare HTTP GET that does the same.
//! Nothing here panics: every failure is a value the caller counts.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;

use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

type Sink = SplitSink<WebSocketStream<MaybeTlsStream<TcpStream>>, Message>;

/// Why a request did not get its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The server answered `error` with this code.
    Refused(String),
    /// The handshake was answered with this HTTP status (429, 503).
    Status(u16),
    /// The connection could not be made or ended (with its close code).
    Closed(Option<u16>),
    /// No answer in time.
    Timeout,
}

impl Failure {
    /// A short name to count it under.
    pub(crate) fn key(&self) -> String {
        match self {
            Failure::Refused(code) => code.clone(),
            Failure::Status(status) => format!("http_{status}"),
            Failure::Closed(Some(code)) => format!("closed_{code}"),
            Failure::Closed(None) => "closed".into(),
            Failure::Timeout => "timeout".into(),
        }
    }
}

/// A connection: its write half and the messages its reader task passed on.
pub(crate) struct Conn {
    sink: Sink,
    rx: mpsc::UnboundedReceiver<Result<Value, Option<u16>>>,
    /// Messages read while waiting for an answer, handed out first.
    backlog: VecDeque<Value>,
    next_id: u64,
}

impl Conn {
    /// Connects to `url` as a client at address `from`.
    pub(crate) async fn connect(url: &str, from: &str) -> Result<Conn, Failure> {
        let mut request = url
            .into_client_request()
            .map_err(|_| Failure::Closed(None))?;
        request.headers_mut().insert(
            "x-forwarded-for",
            from.parse().map_err(|_| Failure::Closed(None))?,
        );
        let connecting = connect_async_with_config(request, None, true);
        let socket = match tokio::time::timeout(Duration::from_secs(20), connecting).await {
            Err(_) => return Err(Failure::Timeout),
            Ok(Err(tokio_tungstenite::tungstenite::Error::Http(response))) => {
                return Err(Failure::Status(response.status().as_u16()));
            }
            Ok(Err(_)) => return Err(Failure::Closed(None)),
            Ok(Ok((socket, _))) => socket,
        };
        let (sink, mut stream) = socket.split();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(frame) = stream.next().await {
                match frame {
                    Ok(Message::Text(text)) => {
                        if let Ok(message) = serde_json::from_str::<Value>(text.as_str())
                            && tx.send(Ok(message)).is_err()
                        {
                            return;
                        }
                    }
                    Ok(Message::Close(frame)) => {
                        let _ = tx.send(Err(frame.map(|f| u16::from(f.code))));
                        return;
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(Err(None));
        });
        Ok(Conn {
            sink,
            rx,
            backlog: VecDeque::new(),
            next_id: 0,
        })
    }

    /// Sends `message` as it is.
    pub(crate) async fn send(&mut self, message: &Value) -> Result<(), Failure> {
        self.sink
            .send(Message::text(message.to_string()))
            .await
            .map_err(|_| Failure::Closed(None))
    }

    /// Sends `message` with a fresh request id and returns the id.
    pub(crate) async fn send_with_id(&mut self, mut message: Value) -> Result<String, Failure> {
        self.next_id += 1;
        let id = format!("r{}", self.next_id);
        message["id"] = Value::String(id.clone());
        self.send(&message).await?;
        Ok(id)
    }

    /// Sends `message` and waits for its answer; other messages meanwhile
    /// are kept for [`Conn::next`]. An `error` answer is `Refused`.
    pub(crate) async fn request(
        &mut self,
        message: Value,
        within: Duration,
    ) -> Result<Value, Failure> {
        let id = self.send_with_id(message).await?;
        let deadline = Instant::now() + within;
        loop {
            let message = self.read(deadline).await?;
            if message["id"].as_str() == Some(id.as_str()) {
                return answer(message);
            }
            self.backlog.push_back(message);
        }
    }

    /// The next message (kept ones first), until `deadline`.
    pub(crate) async fn next(&mut self, deadline: Instant) -> Result<Value, Failure> {
        if let Some(message) = self.backlog.pop_front() {
            return Ok(message);
        }
        self.read(deadline).await
    }

    async fn read(&mut self, deadline: Instant) -> Result<Value, Failure> {
        match tokio::time::timeout_at(deadline, self.rx.recv()).await {
            Err(_) => Err(Failure::Timeout),
            Ok(None) => Err(Failure::Closed(None)),
            Ok(Some(Err(code))) => Err(Failure::Closed(code)),
            Ok(Some(Ok(message))) => Ok(message),
        }
    }
}

/// An answer, or the refusal it is.
pub(crate) fn answer(message: Value) -> Result<Value, Failure> {
    if message["type"] == "error" {
        let code = message["code"].as_str().unwrap_or("error_without_code");
        Err(Failure::Refused(code.to_owned()))
    } else {
        Ok(message)
    }
}

/// A GET of `path` from `addr` as a client at address `from`: the status
/// and the number of body bytes (the connection is closed after it).
pub(crate) async fn http_get(
    addr: SocketAddr,
    path: &str,
    from: &str,
) -> Result<(u16, Vec<u8>), Failure> {
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-Forwarded-For: {from}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.ok()?;
        let head_end = response.windows(4).position(|w| w == b"\r\n\r\n")?;
        let head = String::from_utf8_lossy(&response[..head_end]).into_owned();
        let status = head.split_whitespace().nth(1)?.parse().ok()?;
        let body = &response[head_end + 4..];
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)?
        } else {
            body.to_vec()
        };
        Some((status, body))
    };
    match tokio::time::timeout(Duration::from_secs(20), exchange).await {
        Err(_) => Err(Failure::Timeout),
        Ok(None) => Err(Failure::Closed(None)),
        Ok(Some(answer)) => Ok(answer),
    }
}

/// A chunked body put back together.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut whole = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some(whole);
        }
        whole.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}
