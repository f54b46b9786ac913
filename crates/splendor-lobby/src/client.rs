//! Who a request comes from, as the lobby's per-address budgets count it
//! (issue 45): the gateway's key of a client address.

/// The client a request to create a room comes from, as the gateway groups
/// its clients (the server uses the client's network address, an IPv6
/// address by its /64). The lobby only compares keys: at most
/// [`LobbyConfig::max_waiting_rooms_per_ip`] rooms waiting for players may
/// come from one key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(String);

impl ClientKey {
    /// A key from the gateway's text form of a client address.
    pub fn new(key: impl Into<String>) -> ClientKey {
        ClientKey(key.into())
    }

    /// Its text form.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
