//! The persistence step on the core: nothing is seen before it is durable,
//! a failed write changes nothing, a store that is ahead is reloaded.

use expect_test::expect;

use super::check::check;

#[test]
fn a_failed_persistence_step_rejects_the_action_and_changes_nothing() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        store fails unavailable
        ann@c1 act {"take":["white","blue","green"]}
        store fails failed
        ann@c1 act {"take":["white","blue","green"]}
        probe
        ann@c1 act {"take":["white","blue","green"]} v0
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            store fails unavailable
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> Unavailable
              reply storage_unavailable: room-store-unavailable
            store fails failed
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> Failed
              reply persistence_failed: room-store-failed
            probe
              RoomProbe { status: Playing, version: Some(0), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r5 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 (frame)
              reply ok
        "#]],
    );
}

/// Another server took the room over (its lease is newer; the store
/// fenced this one's write): nothing was stored, the caller's request
/// fails with `room_closed`, and the room closes at once, telling everyone
/// to reconnect. Several nodes' seam; one node's store never fences.
#[test]
fn a_fenced_write_closes_the_room_at_once() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        store fails fenced
        ann@c1 act {"take":["white","blue","green"]}
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            store fails fenced
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> Fenced
              reply room_closed: room-closed
              closed "closed-moved" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-moved"
        "#]],
    );
}

/// The lobby found the room's lease lost at its renewal (another node took
/// the room over, issue 21): the room closes at once and writes nothing, not
/// even the result of a game in progress; a second notice changes nothing.
#[test]
fn a_lost_lease_closes_the_room_at_once_without_a_write() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        lease lost
        lease lost
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            lease lost
              closed "closed-moved" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-moved"
            lease lost
        "#]],
    );
}

/// A node that stops hands its rooms off (issue 21, a rolling restart): a
/// game in progress closes with `closed-moved` (another node restores it
/// from its log and its people find it there), writing nothing; a room
/// without a game closes with `closed-shutting-down`; a second notice
/// changes nothing.
#[test]
fn a_handed_off_room_closes_as_moved_only_with_a_game_in_progress() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        hand off
        hand off
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            hand off
              closed "closed-moved" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-moved"
            hand off
        "#]],
    );
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        hand off
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            hand off
              closed "closed-shutting-down" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-shutting-down"
              deadline none
        "#]],
    );
}

#[test]
fn a_game_whose_record_cannot_be_stored_does_not_start() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        store fails unavailable
        ann@c1 start joined
        probe
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            store fails unavailable
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> Unavailable
              reply storage_unavailable: room-store-unavailable
            probe
              RoomProbe { status: Waiting, version: None, seated: 2, connected_players: 2, spectators: 0 }
        "#]],
    );
}

#[test]
fn a_store_ahead_of_the_room_is_reloaded_and_the_caller_told_its_version_is_stale() {
    // The commit of Ann's action succeeded but its answer was lost: she is
    // told it failed, and her retry finds the store ahead. The room reloads
    // the log and everyone gets the stored game.
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        store loses
        ann@c1 act {"take":["white","blue","green"]}
        probe
        ann@c1 act {"take":["white","blue","green"]}
        probe
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            store loses
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> Unavailable
              reply storage_unavailable: room-store-unavailable
            probe
              RoomProbe { status: Playing, version: Some(0), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> Diverged
              write load log -> 1 actions
              c1 <- history v1 (1 actions)
              c1 <- state v1 to_act 1 legal -
              c2 <- history v1 (1 actions)
              c2 <- state v1 to_act 1 legal 27
              reply stale_version: room-stale-version(current=1, expected=0)
            probe
              RoomProbe { status: Playing, version: Some(1), seated: 2, connected_players: 2, spectators: 0 }
        "#]],
    );
}

#[test]
fn a_result_that_failed_to_store_is_stored_when_the_room_closes() {
    // The last action is durable, so the game is over for everyone even
    // though its result could not be stored; the room stores it again when
    // it closes (and a restart would, from the log).
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        play 72
        store refuses results
        play next
        store takes results
        handles gone
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            play 72
              played 72: RoomProbe { status: Playing, version: Some(72), seated: 2, connected_players: 2, spectators: 0 }
            store refuses results
            play next
              write action #72 seat 1 {"buy":72} -> ok
              count ActionApplied
              count GameFinished
              write result winners [1] -> Unavailable
              listed Finished 2/2 host ann
              c1 <- events v73 (2) (frame)
              c1 <- lean state v73 to_act - legal - (frame)
              c1 <- result winners [1] (frame)
              c2 <- events v73 (2) (frame)
              c2 <- lean state v73 to_act - legal - (frame)
              c2 <- result winners [1] (frame)
              c1 <- room Finished [ann* bob] you player#0
              c2 <- room Finished [ann* bob] you player#1
              reply ok
              deadline 1800s
            store takes results
            handles gone
              write result winners [1] -> ok
              closed "closed-shutting-down" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-shutting-down"
              deadline none
        "#]],
    );
}

#[test]
fn a_room_closes_even_when_its_result_still_cannot_be_stored() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        play 72
        store refuses results
        play next
        handles gone
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            play 72
              played 72: RoomProbe { status: Playing, version: Some(72), seated: 2, connected_players: 2, spectators: 0 }
            store refuses results
            play next
              write action #72 seat 1 {"buy":72} -> ok
              count ActionApplied
              count GameFinished
              write result winners [1] -> Unavailable
              listed Finished 2/2 host ann
              c1 <- events v73 (2) (frame)
              c1 <- lean state v73 to_act - legal - (frame)
              c1 <- result winners [1] (frame)
              c2 <- events v73 (2) (frame)
              c2 <- lean state v73 to_act - legal - (frame)
              c2 <- result winners [1] (frame)
              c1 <- room Finished [ann* bob] you player#0
              c2 <- room Finished [ann* bob] you player#1
              reply ok
              deadline 1800s
            handles gone
              write result winners [1] -> Unavailable
              closed "closed-shutting-down" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-shutting-down"
              deadline none
        "#]],
    );
}

/// A store behind the room (it lost actions) is never reloaded: that would
/// take the game back and deal again cards everyone has seen (R6.4). The
/// action is refused and the game stays as it is.
#[test]
fn r6_4_a_store_that_lost_actions_is_not_reloaded_backwards() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        play 3
        store forgets
        play next
        probe
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            play 3
              played 3: RoomProbe { status: Playing, version: Some(3), seated: 2, connected_players: 2, spectators: 0 }
            store forgets
            play next
              write action #3 seat 1 {"reserve":53} -> Diverged
              write load log -> 2 actions
              reply internal: room-internal
            probe
              RoomProbe { status: Playing, version: Some(3), seated: 2, connected_players: 2, spectators: 0 }
        "#]],
    );
}
