//! The room core reads no clock, draws no OS randomness and holds no
//! channel: its modules name none of tokio, `Instant::now`, `OsRng`,
//! `random::` or a `Connection` (ARCHITECTURE.md, invariants).

/// The core's modules, as compiled.
const CORE: [(&str, &str); 9] = [
    ("bots.rs", include_str!("../bots.rs")),
    ("core.rs", include_str!("../core.rs")),
    ("effect.rs", include_str!("../effect.rs")),
    ("input.rs", include_str!("../input.rs")),
    ("membership.rs", include_str!("../membership.rs")),
    ("outbox.rs", include_str!("../outbox.rs")),
    ("play.rs", include_str!("../play.rs")),
    ("seats.rs", include_str!("../seats.rs")),
    ("timers.rs", include_str!("../timers.rs")),
];

#[test]
fn the_room_core_reads_no_clock_and_holds_no_channel() {
    let forbidden = [
        "tokio",
        "Instant::now",
        "SystemTime",
        "OsRng",
        "random::",
        "Connection",
        "mpsc",
        "oneshot",
        ".await",
        "async ",
    ];
    for (file, text) in CORE {
        for word in forbidden {
            assert!(!text.contains(word), "room/{file} mentions {word:?}");
        }
    }
}
