//! Parking a turn-based game (issue 25, R12.5) on the room core: once
//! nobody is at a game that waits for a person, the room asks for it to be
//! parked in the store with its turn's deadline and closes; anyone
//! attached keeps it open, a refused park is tried again, and a turn the
//! stand-in is to play is played, not parked. Time is passed in.

use expect_test::expect;

/// A turn-based room's config that parks its game after 10 minutes of
/// nobody there (issue 25).
fn parking() -> crate::config::RoomConfig {
    crate::config::RoomConfig {
        park_after: Some(std::time::Duration::from_secs(600)),
        ..Default::default()
    }
}

/// Issue 25: once both players went and the game waits for one of them,
/// the room parks it in the store with its turn's deadline after ten
/// minutes of nobody there and closes; the sessions keep their seats
/// (`sessions`), nobody is there to be told. A spectator keeps it open;
/// when the spectator goes the ten minutes start again.
#[test]
fn a_game_nobody_is_at_is_parked_with_its_deadline() {
    super::check::check_with(
        parking(),
        r#"
        ~ room 2 per_move 24h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ~ ann@c1 act {"take":["white","blue","green"]} v0
        ~ ann@c1 leave
        ~ cy@c3 join spectator
        bob@c2 detach
        wait 1h
        cy@c3 leave
        wait 10m
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ~ ann@c1 act {"take":["white","blue","green"]} v0
            ~ ann@c1 leave
            ~ cy@c3 join spectator
            bob@c2 detach
              release c2
              c3 <- room Playing [ann*~ bob~] watching ["cy"] you spectator (frame)
              reply ok
            wait 1h
            cy@c3 leave
              c3 <- left id=r7
              release c3
              reply ok
              deadline 4200s
            wait 10m
              @4200s timeout
              write park until @86400s -> ok
              closed "closed-parked" sessions ["ann", "bob"] farewell []: room_closed "closed-parked"
              deadline none
        "#]],
    );
}

/// Issue 25: a park the store refuses leaves the game in its room, and is
/// tried again after as long again.
#[test]
fn a_refused_park_is_tried_again_and_the_stand_in_is_never_parked() {
    super::check::check_with(
        parking(),
        r#"
        ~ room 2 per_move 1h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ~ ann@c1 act {"take":["white","blue","green"]} v0
        ~ ann@c1 leave
        ~ bob@c2 detach
        store fails unavailable
        wait 10m
        wait 10m
        "#,
        expect![[r#"
            ~ room 2 per_move 1h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ~ ann@c1 act {"take":["white","blue","green"]} v0
            ~ ann@c1 leave
            ~ bob@c2 detach
            store fails unavailable
            wait 10m
              @600s timeout
              write park until @3600s -> Unavailable
              deadline 1200s
            wait 10m
              @1200s timeout
              write park until @3600s -> ok
              closed "closed-parked" sessions ["ann", "bob"] farewell []: room_closed "closed-parked"
              deadline none
        "#]],
    );
}

/// Issue 25: the stand-in's turn (a passed deadline) is played, not
/// parked; the next person's turn is then parked ten minutes later.
#[test]
fn after_the_stand_in_moved_the_next_persons_turn_is_parked() {
    super::check::check_with(
        parking(),
        r#"
        ~ room 2 per_move 1h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ~ ann@c1 act {"take":["white","blue","green"]} v0
        ~ ann@c1 leave
        ~ cy@c3 join spectator
        ~ bob@c2 detach
        wait 59m
        cy@c3 leave
        wait 1m
        bot answers
        wait 1s
        wait 9m
        "#,
        expect![[r#"
            ~ room 2 per_move 1h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ~ ann@c1 act {"take":["white","blue","green"]} v0
            ~ ann@c1 leave
            ~ cy@c3 join spectator
            ~ bob@c2 detach
            wait 59m
            cy@c3 leave
              c3 <- left id=r7
              release c3
              reply ok
            wait 1m
              @3600s timeout
              count ClockTimeout
              think seat 1 v1 greedy
              deadline none
            bot answers
              deadline 3601s
            wait 1s
              @3601s timeout
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              notify ann your_turn 3600s left
              deadline 4140s
            wait 9m
              @4140s timeout
              write park until @7201s -> ok
              closed "closed-parked" sessions ["ann", "bob"] farewell []: room_closed "closed-parked"
              deadline none
        "#]],
    );
}

/// Issue 23: the chat the room keeps goes into the store with the parked
/// game (each line with its author), so that it comes back with it; a
/// muted person's lines went before.
#[test]
fn a_parked_game_takes_its_chat_along() {
    super::check::check_with(
        parking(),
        r#"
        ~ room 2 per_move 24h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ~ ann@c1 chat "see you tomorrow"
        ~ bob@c2 chat "good night"
        ~ ann@c1 act {"take":["white","blue","green"]} v0
        ~ ann@c1 leave
        ~ bob@c2 leave
        wait 10m
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ~ ann@c1 chat "see you tomorrow"
            ~ bob@c2 chat "good night"
            ~ ann@c1 act {"take":["white","blue","green"]} v0
            ~ ann@c1 leave
            ~ bob@c2 leave
            wait 10m
              @600s timeout
              write park until @86400s with chat ["\"see you tomorrow\"", "\"good night\""] -> ok
              closed "closed-parked" sessions ["ann", "bob"] farewell []: room_closed "closed-parked"
              deadline none
        "#]],
    );
}
