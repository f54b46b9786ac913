//! `splendor-server healthcheck`: asks a running server for `/healthz`, so
//! that a container's HEALTHCHECK needs no curl in the image.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Why a health check failed.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The server did not answer in time.
    #[error("no answer from {addr} within {timeout:?}")]
    Timeout {
        /// Where the probe asked.
        addr: SocketAddr,
        /// How long it waited.
        timeout: Duration,
    },
    /// The server could not be reached.
    #[error("cannot reach {addr}: {source}")]
    Io {
        /// Where the probe asked.
        addr: SocketAddr,
        /// Why it could not.
        source: std::io::Error,
    },
    /// The server answered, but not 200.
    #[error("{addr} answered {status_line:?}")]
    Unhealthy {
        /// Where the probe asked.
        addr: SocketAddr,
        /// The HTTP status line it got.
        status_line: String,
    },
}

/// Where to reach a server listening on `listen`: an unspecified address
/// (0.0.0.0, ::) is reached on the loopback of its family.
pub fn probe_address(listen: SocketAddr) -> SocketAddr {
    let ip = match listen.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listen.port())
}

/// GET `path` on the server listening on `listen`; `Ok` for a 200 answer.
pub async fn check(listen: SocketAddr, path: &str, timeout: Duration) -> Result<(), ProbeError> {
    let addr = probe_address(listen);
    tokio::time::timeout(timeout, get(addr, path))
        .await
        .map_err(|_| ProbeError::Timeout { addr, timeout })?
}

async fn get(addr: SocketAddr, path: &str) -> Result<(), ProbeError> {
    let io = |source| ProbeError::Io { addr, source };
    let mut stream = TcpStream::connect(addr).await.map_err(io)?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.map_err(io)?;
    // The status line is all we need; a healthy answer is tiny anyway.
    let mut answer = Vec::with_capacity(256);
    let mut chunk = [0u8; 256];
    while !answer.contains(&b'\n') && answer.len() < 4096 {
        let n = stream.read(&mut chunk).await.map_err(io)?;
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&answer);
    let status_line = text.lines().next().unwrap_or_default().trim().to_owned();
    let code = status_line.split_whitespace().nth(1);
    if status_line.starts_with("HTTP/1.") && code == Some("200") {
        Ok(())
    } else {
        Err(ProbeError::Unhealthy { addr, status_line })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unspecified_addresses_are_probed_on_loopback() {
        let v4: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(probe_address(v4), "127.0.0.1:8080".parse().unwrap());
        let v6: SocketAddr = "[::]:9000".parse().unwrap();
        assert_eq!(probe_address(v6), "[::1]:9000".parse().unwrap());
        let exact: SocketAddr = "192.0.2.4:80".parse().unwrap();
        assert_eq!(probe_address(exact), exact);
    }

    #[tokio::test]
    async fn nothing_listening_is_an_error() {
        // Bind then drop: the port is (very likely) closed right after.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let e = check(addr, "/healthz", Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(matches!(e, ProbeError::Io { .. }), "{e}");
    }
}
