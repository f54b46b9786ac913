//! A webhook receiver on loopback, for the tests of notices (issue 25):
//! it takes every POST and hands its event, signature and body to the
//! test.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// One delivery as the receiver saw it.
#[derive(Debug)]
pub struct Delivery {
    /// `X-Splendor-Event`.
    pub event: String,
    /// `X-Splendor-Signature`.
    pub signature: String,
    /// The body.
    pub body: Vec<u8>,
}

/// An HTTP receiver on loopback: each POST's headers and body go to the
/// channel; it answers 204.
pub async fn receiver() -> (String, mpsc::UnboundedReceiver<Delivery>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buf = [0u8; 4096];
                let (head, body_start) = loop {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buf[..n]);
                    if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                        break (String::from_utf8_lossy(&data[..end]).to_string(), end + 4);
                    }
                };
                let header = |name: &str| {
                    head.lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.trim()
                                .eq_ignore_ascii_case(name)
                                .then(|| v.trim().to_owned())
                        })
                        .unwrap_or_default()
                };
                let length: usize = header("content-length").parse().unwrap_or(0);
                while data.len() < body_start + length {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    data.extend_from_slice(&buf[..n]);
                }
                let _ = tx.send(Delivery {
                    event: header("x-splendor-event"),
                    signature: header("x-splendor-signature"),
                    body: data[body_start..].to_vec(),
                });
                let _ = socket
                    .write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                    .await;
            });
        }
    });
    (url, rx)
}
