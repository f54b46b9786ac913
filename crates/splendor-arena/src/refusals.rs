//! Each move the embedded server refused, by room and seat (issue 51: the
//! arena reported only a count per game, and with games in parallel not
//! even that). The room logs every refused action (`action rejected`, with
//! its seat, the action and the error's code) inside its `room` span,
//! whose `code` names the room; a tracing layer, installed as the process's
//! subscriber when the first hosted series starts, keeps those events per
//! room until the series takes them ([`take`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::{Event, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context;
use tracing_subscriber::prelude::*;
use tracing_subscriber::registry::LookupSpan;

/// One move the server refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedMove {
    /// The seat that sent it, in turn order.
    pub seat: u8,
    /// The action, as the room logged it.
    pub action: String,
    /// The error's code (`not_your_turn`, `invalid_action`, ...).
    pub code: String,
}

/// The refusals seen, by room code, until taken.
fn seen() -> &'static Mutex<HashMap<String, Vec<RefusedMove>>> {
    static SEEN: OnceLock<Mutex<HashMap<String, Vec<RefusedMove>>>> = OnceLock::new();
    SEEN.get_or_init(Mutex::default)
}

/// Installs the layer as the process's subscriber, once. Whether refused
/// moves are itemized: false when another subscriber was installed first
/// (an embedding program's), and then only counts are known.
pub fn install() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(RefusalLayer))
            .is_ok()
    })
}

/// The refusals of room `code`, taken (the room is done with).
pub fn take(code: &str) -> Vec<RefusedMove> {
    seen()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(code)
        .unwrap_or_default()
}

/// The room code a `room` span was made with.
struct RoomCode(String);

struct RefusalLayer;

/// Collects a span's or an event's fields by name, as text.
#[derive(Default)]
struct Fields(HashMap<&'static str, String>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let mut text = String::new();
        let _ = write!(text, "{value:?}");
        self.0.insert(field.name(), text);
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name(), value.to_owned());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name(), value.to_string());
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name(), value.to_string());
    }
}

impl<S> Layer<S> for RefusalLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if attrs.metadata().name() != "room" {
            return;
        }
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        if let (Some(code), Some(span)) = (fields.0.remove("code"), ctx.span(id)) {
            span.extensions_mut().insert(RoomCode(code));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        if !event.metadata().target().starts_with("splendor_room") {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        if fields.0.get("message").map(String::as_str) != Some("action rejected") {
            return;
        }
        let Some(room) = ctx.event_scope(event).and_then(|scope| {
            scope
                .into_iter()
                .find_map(|span| span.extensions().get::<RoomCode>().map(|c| c.0.clone()))
        }) else {
            return;
        };
        let refused = RefusedMove {
            seat: fields
                .0
                .get("seat")
                .and_then(|s| s.parse().ok())
                .unwrap_or(0),
            action: fields.0.remove("action").unwrap_or_default(),
            code: fields.0.remove("code").unwrap_or_default(),
        };
        seen()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(room)
            .or_default()
            .push(refused);
    }
}
