//! The operators close a room (issue 22): a waiting room simply closes; a
//! game in play ends first, stored with the standings it stopped at, no
//! winner, unrated; everyone is told why. If that cannot be stored,
//! nothing changes.

use expect_test::expect;

use super::check::check;

#[test]
fn a_waiting_room_closes_and_everyone_is_told_why() {
    check(
        r#"
        room 3 ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join spectator
        operators close spam in the room name
        bob@c2 sync
        "#,
        expect![[r#"
            room 3 ann@c1
              c1 <- room Waiting [ann* - -] you player#0 id=create
              deadline 3600s
            ~ bob@c2 join player
            ~ cy@c3 join spectator
            operators close spam in the room name
              reply ok
              closed "closed-by-operators" sessions ["ann", "bob", "cy"] farewell ["c1", "c2", "c3"]: room_closed "closed-by-operators(reason=\"spam in the room name\")"
              deadline none
            bob@c2 sync
              reply room_closed: room-closed
        "#]],
    );
}

#[test]
fn a_game_in_play_ends_with_its_standings_then_the_room_closes() {
    check(
        r#"
        room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ~ play 40
        operators close abuse at the table
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ~ play 40
            operators close abuse at the table
              write ended by the operators (abuse at the table) standings [6, 1] -> ok
              reply ok
              closed "closed-by-operators" sessions ["ann", "bob"] farewell ["c1", "c2"]: room_closed "closed-by-operators(reason=\"abuse at the table\")"
        "#]],
    );
}

#[test]
fn when_the_end_cannot_be_stored_nothing_changes() {
    check(
        r#"
        room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        store refuses results
        operators close abuse at the table
        store takes results
        probe
        play next
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ~ bob@c2 join player
            ~ ann@c1 start joined
            store refuses results
            operators close abuse at the table
              write ended by the operators (abuse at the table) standings [0, 0] -> Unavailable
              reply storage_unavailable: room-store-unavailable
            store takes results
            probe
              RoomProbe { status: Playing, version: Some(0), seated: 2, connected_players: 2, spectators: 0 }
            play next
              write action #0 seat 0 {"take":["blue","red","black"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 (frame)
              reply ok
        "#]],
    );
}
