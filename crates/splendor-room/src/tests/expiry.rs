//! The room's timers on the core: when a room closes by itself.

use std::time::Duration;

use expect_test::expect;

use super::check::{check, check_with};
use crate::config::RoomConfig;

/// Idle TTL 10 minutes, empty-room grace 1 minute.
fn expiry_config() -> RoomConfig {
    RoomConfig {
        room_idle_ttl: Duration::from_secs(600),
        empty_room_ttl: Duration::from_secs(60),
        ..RoomConfig::default()
    }
}

#[test]
fn a_waiting_room_without_connected_players_closes_after_the_empty_room_grace() {
    // A spectator does not keep the room alive.
    check_with(
        expiry_config(),
        r#"
        room 2 ann@c1
        cy@c2 join spectator
        wait 10s
        ann@c1 detach
        wait 1h
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 600s
            cy@c2 join spectator
              c1 <- room Waiting [ann* -] watching ["cy"] you player#0
              c2 <- room Waiting [ann* -] watching ["cy"] you spectator id=r1
              reply joined spectator
            wait 10s
            ann@c1 detach
              release c1
              c2 <- room Waiting [ann*~ -] watching ["cy"] you spectator (frame)
              reply ok
              deadline 70s
            wait 1h
              @70s timeout
              closed "closed-nobody-connected" sessions ["ann", "cy"] farewell ["c2"]: room_closed "closed-nobody-connected"
              deadline none
        "#]],
    );
}

#[test]
fn a_player_back_within_the_grace_keeps_the_waiting_room() {
    // Connected again: the idle TTL applies, counted from the reconnection.
    check_with(
        expiry_config(),
        r#"
        room 2 ann@c1
        ann@c1 detach
        wait 59s
        ann@c2 join player
        wait 1h
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 600s
            ann@c1 detach
              release c1
              reply ok
              deadline 60s
            wait 59s
            ann@c2 join player
              c2 <- room Waiting [ann* -] you player#0 id=r2
              reply joined player#0
              deadline 659s
            wait 1h
              @659s timeout
              closed "closed-idle" sessions ["ann"] farewell ["c2"]: room_closed "closed-idle"
              deadline none
        "#]],
    );
}

#[test]
fn a_waiting_room_with_a_connected_player_closes_after_the_idle_ttl_without_activity() {
    // Each request restarts the idle clock; a probe does not.
    check_with(
        expiry_config(),
        r#"
        room 2 ann@c1
        wait 599s
        bob@c2 join player
        wait 599s
        probe
        wait 1s
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 600s
            wait 599s
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host ann
              deadline 1199s
            wait 599s
            probe
              RoomProbe { status: Waiting, version: None, seated: 2, connected_players: 2, spectators: 0 }
            wait 1s
              @1199s timeout
              closed "closed-idle" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-idle"
              deadline none
        "#]],
    );
}

#[test]
fn a_started_game_is_not_closed_by_the_waiting_room_timers() {
    // Far past both the grace and the idle TTL; the abandoned-game TTL is a day.
    check_with(
        expiry_config(),
        r#"
        room 2 ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 1h
        probe
        wait 23h
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] you player#0 id=r2
              c2 <- room Playing [ann* bob] you player#1
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 2/2 host ann
              deadline none
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
              deadline 86400s
            wait 1h
            probe
              RoomProbe { status: Playing, version: Some(0), seated: 2, connected_players: 0, spectators: 0 }
            wait 23h
              @86400s timeout
              closed "closed-players-away" sessions ["ann", "bob"] farewell []: room_closed "closed-players-away"
              deadline none
        "#]],
    );
}

#[test]
fn a_finished_game_stays_viewable_until_its_ttl() {
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        ann@c1 start joined
        play end
        wait 29m
        bob@c2 sync
        wait 1m
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] you player#0 id=r2
              c2 <- room Playing [ann* bob] you player#1
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 2/2 host ann
              deadline none
            play end
              played 73: RoomProbe { status: Finished, version: Some(73), seated: 2, connected_players: 2, spectators: 0 }
            wait 29m
            bob@c2 sync
              c2 <- room Finished [ann* bob] you player#1 id=r76
              c2 <- history v73 (73 actions)
              c2 <- state v73 to_act - legal -
              c2 <- result winners [0]
              reply ok
            wait 1m
              @1800s timeout
              closed "closed-viewing-over" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-viewing-over"
              deadline none
        "#]],
    );
}

#[test]
fn a_finished_game_nobody_watches_closes_after_the_empty_room_grace() {
    // Its record and replay stay in the store; the room itself is not kept
    // for nobody through the whole viewing time. A spectator keeps it.
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        ann@c1 start joined
        play end
        ann@c1 detach
        bob@c2 detach
        cy@c3 join spectator
        wait 10m
        cy@c3 detach
        wait 59s
        wait 2s
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] you player#0 id=r2
              c2 <- room Playing [ann* bob] you player#1
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 2/2 host ann
              deadline none
            play end
              played 73: RoomProbe { status: Finished, version: Some(73), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 detach
              release c1
              c2 <- room Finished [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
              deadline 60s
            cy@c3 join spectator
              c3 <- room Finished [ann*~ bob~] watching ["cy"] you spectator id=r78
              c3 <- history v73 (73 actions)
              c3 <- state v73 to_act - legal -
              c3 <- result winners [0]
              reply joined spectator
              deadline 1800s
            wait 10m
            cy@c3 detach
              release c3
              reply ok
              deadline 660s
            wait 59s
            wait 2s
              @660s timeout
              closed "closed-viewing-over" sessions ["ann", "bob"] farewell []: room_closed "closed-viewing-over"
              deadline none
        "#]],
    );
}

#[test]
fn a_restored_game_waits_for_its_players_until_the_abandoned_game_ttl() {
    check(
        r#"
        restored 2 ann bob
        wait 23h
        bob@c5 join spectator
        bob@c5 detach
        wait 24h
        "#,
        expect![[r#"
            restored 2 ann bob
              deadline 86400s
            wait 23h
            bob@c5 join spectator
              c5 <- room Playing [ann*~ bob] you player#1 id=r1
              c5 <- state v0 to_act 0 legal -
              reply joined player#1
              deadline none
            bob@c5 detach
              release c5
              reply ok
              deadline 169200s
            wait 24h
              @169200s timeout
              closed "closed-players-away" sessions ["ann", "bob"] farewell []: room_closed "closed-players-away"
              deadline none
        "#]],
    );
}

#[test]
fn a_room_whose_handles_are_gone_closes() {
    check(
        r#"
        room 2 ann@c1
        handles gone
        ann@c1 sync
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            handles gone
              closed "closed-shutting-down" sessions ["ann"] farewell ["c1"]: room_closed "closed-shutting-down"
              deadline none
            ann@c1 sync
              reply room_closed: room-closed
        "#]],
    );
}
