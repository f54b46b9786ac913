//! Built-in bots at the table (issue 10): the host seats and removes them,
//! they count as players for the start, each of their moves is asked for
//! with the seat's view only and played through the same path as a
//! person's, no sooner than the bots' delay.

use std::time::Duration;

use expect_test::expect;

use super::check::{check, check_with};
use crate::config::RoomConfig;

fn quick() -> RoomConfig {
    RoomConfig::default()
}

#[test]
fn only_the_host_adds_and_removes_bots_before_the_start_and_bad_requests_change_nothing() {
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        bob@c2 add_bot greedy
        ann@c1 add_bot grandmaster
        ann@c1 add_bot strong
        ann@c1 add_bot random
        ann@c1 remove_bot 1
        ann@c1 remove_bot 2
        ann@c1 remove_bot 7
        ann@c1 add_bot strong
        ann@c1 start joined
        ann@c1 add_bot greedy
        ann@c1 remove_bot 2
        "#,
        expect![[r#"
            room 3 ann@c1
              c1 <- room Waiting [ann* - -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob -] you player#0
              c2 <- room Waiting [ann* bob -] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/3 host ann
            bob@c2 add_bot greedy
              reply not_host: room-not-host
            ann@c1 add_bot grandmaster
              reply unknown_bot_level: room-unknown-bot-level(level="\"grandmaster\"")
            ann@c1 add_bot strong
              c1 <- room Waiting [ann* bob Strong bot(strong)] you player#0 id=r4
              c2 <- room Waiting [ann* bob Strong bot(strong)] you player#1
              reply ok
              listed Waiting 3/3 host ann
            ann@c1 add_bot random
              reply room_full: room-full(example="\"as\":\"spectator\"")
            ann@c1 remove_bot 1
              reply not_a_bot: room-not-a-bot(seat=1)
            ann@c1 remove_bot 2
              c1 <- room Waiting [ann* bob -] you player#0 id=r7
              c2 <- room Waiting [ann* bob -] you player#1
              reply ok
              listed Waiting 2/3 host ann
            ann@c1 remove_bot 7
              reply not_a_bot: room-not-a-bot(seat=7)
            ann@c1 add_bot strong
              c1 <- room Waiting [ann* bob Strong bot(strong)] you player#0 id=r9
              c2 <- room Waiting [ann* bob Strong bot(strong)] you player#1
              reply ok
              listed Waiting 3/3 host ann
            ann@c1 start joined
              write game started ["ann", "bob", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob Strong bot(strong)] you player#0 id=r10
              c2 <- room Playing [ann* bob Strong bot(strong)] you player#1
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 3/3 host ann
              deadline none
            ann@c1 add_bot greedy
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
            ann@c1 remove_bot 2
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
        "#]],
    );
}

#[test]
fn a_bot_moves_after_the_delay_through_the_same_path_as_a_person() {
    check(
        r#"
        room 2 ann@c1
        ann@c1 add_bot greedy
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        bot answers
        wait 1s
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* Greedy bot(greedy)] you player#0 id=r1
              reply ok
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* Greedy bot(greedy)] you player#0 id=r2
              c1 <- state v0 to_act 0 legal 30
              reply ok
              listed Playing 2/2 host ann
              deadline none
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              reply ok
              think seat 1 v1 greedy
            bot answers
              deadline 1s
            wait 1s
              @1s timeout
              write action #1 seat 1 {"take":["green","red","black"]} -> ok
              count ActionApplied
              count BotAction
              c1 <- events v2 (1) by bot (frame)
              c1 <- lean state v2 to_act 0 legal 25 (frame)
              deadline none
        "#]],
    );
}

#[test]
fn a_bot_that_cannot_think_plays_a_legal_move_and_the_table_goes_on() {
    check_with(
        RoomConfig {
            bot_delay: Duration::ZERO,
            ..quick()
        },
        r#"
        room 2 ann@c1
        ann@c1 add_bot strong
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        bot fails
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 add_bot strong
              c1 <- room Waiting [ann* Strong bot(strong)] you player#0 id=r1
              reply ok
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* Strong bot(strong)] you player#0 id=r2
              c1 <- state v0 to_act 0 legal 30
              reply ok
              listed Playing 2/2 host ann
              deadline none
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              reply ok
              think seat 1 v1 strong
            bot fails
              write action #1 seat 1 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              count BotAction
              c1 <- events v2 (1) by bot (frame)
              c1 <- lean state v2 to_act 0 legal 27 (frame)
        "#]],
    );
}

#[test]
fn a_person_and_two_bots_play_a_whole_game() {
    check_with(
        quick(),
        r#"
        room 3 ann@c1
        ann@c1 add_bot strong
        ann@c1 add_bot random
        ann@c1 start random
        bots end
        "#,
        expect![[r#"
            room 3 ann@c1
              c1 <- room Waiting [ann* - -] you player#0 id=create
              deadline 3600s
            ann@c1 add_bot strong
              c1 <- room Waiting [ann* Strong bot(strong) -] you player#0 id=r1
              reply ok
              listed Waiting 2/3 host ann
            ann@c1 add_bot random
              c1 <- room Waiting [ann* Strong bot(strong) Random bot(random)] you player#0 id=r2
              reply ok
              listed Waiting 3/3 host ann
            ann@c1 start random
              write game started ["ann", "(bot)", "(bot)"] Options { first_seat: None, rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* Strong bot(strong) Random bot(random)] you player#0 id=r3
              c1 <- state v0 to_act 0 legal 30
              reply ok
              listed Playing 3/3 host ann
              deadline none
            bots end
              after 153 steps: RoomProbe { status: Finished, version: Some(91), seated: 3, connected_players: 1, spectators: 0 }
        "#]],
    );
}

/// A game of bots only goes on with nobody connected, to its end; then the
/// finished room stays viewable for the usual time.
#[test]
fn a_restored_game_of_bots_only_plays_to_its_end_with_nobody_connected() {
    check_with(
        quick(),
        r#"
        restored 2 +greedy +random
        bots end
        wait 59s
        wait 2s
        "#,
        expect![[r#"
            restored 2 +greedy +random
              think seat 0 v0 greedy
            bots end
              after 158 steps: RoomProbe { status: Finished, version: Some(79), seated: 2, connected_players: 0, spectators: 0 }
            wait 59s
              @60s timeout
              closed "closed-viewing-over" sessions ["+greedy", "+random"] farewell []: room_closed "closed-viewing-over"
              deadline none
            wait 2s
        "#]],
    );
}

#[test]
fn bots_do_not_keep_a_waiting_room_open_when_its_people_leave() {
    check(
        r#"
        room 2 ann@c1
        ann@c1 add_bot greedy
        ann@c1 leave
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* Greedy bot(greedy)] you player#0 id=r1
              reply ok
              listed Waiting 2/2 host ann
            ann@c1 leave
              c1 <- left id=r2
              release c1
              reply ok
              closed "closed-everyone-left" sessions ["(bot)"] farewell []: room_closed "closed-everyone-left"
              deadline none
        "#]],
    );
}

/// A host may watch instead of playing: a table of four bots starts and
/// plays to its end; another spectator leaving does not close the room.
#[test]
fn a_watching_host_runs_a_table_of_bots_only() {
    check_with(
        quick(),
        r#"
        room 4 watching ann@c1
        bob@c2 join spectator
        ann@c1 add_bot strong
        ann@c1 add_bot strong
        ann@c1 add_bot greedy
        ann@c1 add_bot random
        bob@c2 leave
        ann@c1 start joined
        bots end
        "#,
        expect![[r#"
            room 4 watching ann@c1
              c1 <- room Waiting [- - - -] watching ["ann"] you spectator id=create
              deadline 3600s
            bob@c2 join spectator
              c1 <- room Waiting [- - - -] watching ["ann", "bob"] you spectator (frame)
              c2 <- room Waiting [- - - -] watching ["ann", "bob"] you spectator id=r1
              reply joined spectator
            ann@c1 add_bot strong
              c1 <- room Waiting [Strong bot(strong) - - -] watching ["ann", "bob"] you spectator id=r2
              c2 <- room Waiting [Strong bot(strong) - - -] watching ["ann", "bob"] you spectator (frame)
              reply ok
              listed Waiting 1/4 host ann
            ann@c1 add_bot strong
              c1 <- room Waiting [Strong bot(strong) Strong bot 2(strong) - -] watching ["ann", "bob"] you spectator id=r3
              c2 <- room Waiting [Strong bot(strong) Strong bot 2(strong) - -] watching ["ann", "bob"] you spectator (frame)
              reply ok
              listed Waiting 2/4 host ann
            ann@c1 add_bot greedy
              c1 <- room Waiting [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) -] watching ["ann", "bob"] you spectator id=r4
              c2 <- room Waiting [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) -] watching ["ann", "bob"] you spectator (frame)
              reply ok
              listed Waiting 3/4 host ann
            ann@c1 add_bot random
              c1 <- room Waiting [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) Random bot(random)] watching ["ann", "bob"] you spectator id=r5
              c2 <- room Waiting [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) Random bot(random)] watching ["ann", "bob"] you spectator (frame)
              reply ok
              listed Waiting 4/4 host ann
            bob@c2 leave
              c2 <- left id=r6
              release c2
              c1 <- room Waiting [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) Random bot(random)] watching ["ann"] you spectator (frame)
              reply ok
            ann@c1 start joined
              write game started ["(bot)", "(bot)", "(bot)", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [Strong bot(strong) Strong bot 2(strong) Greedy bot(greedy) Random bot(random)] watching ["ann"] you spectator id=r7
              c1 <- state v0 to_act 0 legal - (frame)
              reply ok
              think seat 0 v0 strong
              listed Playing 4/4 host ann
              deadline none
            bots end
              after 250 steps: RoomProbe { status: Finished, version: Some(125), seated: 4, connected_players: 0, spectators: 1 }
        "#]],
    );
}

#[test]
fn a_rated_room_seats_no_built_in_bot() {
    // Issue 13: rated games are between people and bot programs only.
    check(
        r#"
        room 2 rated ann@c1
        ann@c1 add_bot greedy
        "#,
        expect![[r#"
            room 2 rated ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 add_bot greedy
              reply rated_room: room-rated
        "#]],
    );
}
