use super::*;
use splendor_lobby::{LobbyConfig, NoPersistence};

/// The value of the sample line that starts with `series `.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn figures_are_rendered_with_their_names_and_labels() {
    let lobby = Lobby::new(LobbyConfig::default(), Arc::new(NoPersistence));
    let metrics = Metrics::new();
    metrics.watch_lobby(&lobby);
    let open = metrics.connection_opened();
    let _second = metrics.connection_opened();
    drop(open);
    metrics.connection_refused(Refusal::Origin);
    metrics.connection_closed(CloseReason::RateLimited);
    metrics.message_received();
    metrics.message_sent();
    metrics.message_sent();
    metrics.intent_rejected("not_your_turn");
    metrics.intent_rejected("not_your_turn");
    metrics.observe_commit("action_applied", Instant::now());
    let text = metrics.render();
    assert_eq!(sample(&text, "splendor_connections"), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "splendor_connections_accepted_total"),
        Some(2.0)
    );
    assert_eq!(
        sample(
            &text,
            "splendor_connections_refused_total{reason=\"origin\"}"
        ),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            "splendor_connections_closed_total{reason=\"rate_limited\"}"
        ),
        Some(1.0)
    );
    assert_eq!(sample(&text, "splendor_messages_received_total"), Some(1.0));
    assert_eq!(sample(&text, "splendor_messages_sent_total"), Some(2.0));
    assert_eq!(
        sample(
            &text,
            "splendor_intents_rejected_total{code=\"not_your_turn\"}"
        ),
        Some(2.0)
    );
    assert_eq!(
        sample(
            &text,
            "splendor_store_commit_seconds_count{op=\"action_applied\"}"
        ),
        Some(1.0)
    );
    for status in ["waiting", "playing", "finished"] {
        let series = format!("splendor_rooms{{status=\"{status}\"}}");
        assert_eq!(sample(&text, &series), Some(0.0), "{series}");
    }
    assert_eq!(sample(&text, "splendor_games_started_total"), Some(0.0));
    assert_eq!(sample(&text, "splendor_actions_applied_total"), Some(0.0));
    assert!(text.ends_with("# EOF\n"));
}
