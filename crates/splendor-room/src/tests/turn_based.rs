//! Turn-based rooms (RULES.md R12.5) on the room core: a deadline per turn
//! instead of a bank, what a passed deadline means, and no lifetimes for
//! the away. Time is passed in: a day here is a day of script time. In the
//! `state` lines `clocks [..]` lists what is left of each seat's turn in
//! milliseconds; `*` runs, `!` is played by the stand-in.

use expect_test::expect;

use super::check::check;

/// R12.5: every turn has the whole time per move from its start; what a
/// player leaves unused is not kept (no bank, no increment), and being
/// disconnected costs nothing (R12.3 does not apply).
#[test]
fn r12_5_each_turn_has_the_whole_time_per_move() {
    check(
        r#"
        ~ room 2 per_move 24h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        wait 1h
        ann@c1 act {"take":["white","blue","green"]} v0
        bob@c2 detach
        wait 20h
        bob@c3 join player
        bob@c3 act {"take":["white","blue","black"]} v1
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            wait 1h
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [86400000 86400000*] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [86400000 86400000*] (frame)
              reply ok
              deadline 90000s
            bob@c2 detach
              release c2
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
            wait 20h
            bob@c3 join player
              c1 <- room Playing [ann* bob] you player#0
              c3 <- room Playing [ann* bob] you player#1 id=r5
              c3 <- history v1 (1 actions)
              c3 <- state v1 to_act 1 legal 27 clocks [86400000 14400000*]
              reply joined player#1
            bob@c3 act {"take":["white","blue","black"]} v1
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [86400000* 86400000] (frame)
              c3 <- events v2 (1) id=r6 (frame)
              c3 <- lean state v2 to_act 0 legal - clocks [86400000* 86400000] (frame)
              reply ok
              deadline 162000s
        "#]],
    );
}

/// R12.5 with the stand-in: a passed deadline has the stand-in play that
/// turn and marks the seat; at the seat's next turn its player has the
/// whole next deadline and, acting within it, the seat back.
#[test]
fn r12_5_a_passed_deadline_has_the_stand_in_play_the_turn() {
    check(
        r#"
        ~ room 2 per_move 24h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 24h
        bot answers
        wait 1s
        ann@c1 act {"take":["white","blue","red"]} v2
        wait 23h
        bob@c2 act {"take":["white","blue","black"]} v3
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [86400000 86400000*] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [86400000 86400000*] (frame)
              reply ok
            wait 24h
              @86400s timeout
              count ClockTimeout
              c1 <- history v1 (1 actions)
              c1 <- state v1 to_act 1 legal - clocks [86400000 0!]
              c2 <- history v1 (1 actions)
              c2 <- state v1 to_act 1 legal 27 clocks [86400000 0!]
              think seat 1 v1 greedy
              deadline none
            bot answers
              deadline 86401s
            wait 1s
              @86401s timeout
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v2 (1) by stand_in (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [86400000* 86400000!] (frame)
              c2 <- events v2 (1) by stand_in (frame)
              c2 <- lean state v2 to_act 0 legal - clocks [86400000* 86400000!] (frame)
              deadline 172801s
            ann@c1 act {"take":["white","blue","red"]} v2
              write action #2 seat 0 {"take":["white","blue","red"]} -> ok
              count ActionApplied
              c1 <- events v3 (1) id=r4 (frame)
              c1 <- lean state v3 to_act 1 legal - clocks [86400000 86400000*!] (frame)
              c2 <- events v3 (1) (frame)
              c2 <- lean state v3 to_act 1 legal 25 clocks [86400000 86400000*!] (frame)
              reply ok
            wait 23h
            bob@c2 act {"take":["white","blue","black"]} v3
              write action #3 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              c1 <- events v4 (1) (frame)
              c1 <- lean state v4 to_act 0 legal 17 clocks [86400000* 86400000] (frame)
              c2 <- events v4 (1) id=r5 (frame)
              c2 <- lean state v4 to_act 0 legal - clocks [86400000* 86400000] (frame)
              reply ok
              deadline 255601s
        "#]],
    );
}

/// R12.5 with `resign`: two people, a passed deadline resigns the one to
/// move, and one person is left in play: the game ends at once (R13.2).
#[test]
fn r12_5_a_passed_deadline_resigns_the_player_when_the_room_says_so() {
    check(
        r#"
        ~ room 2 per_move 1h resign ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        wait 1h
        "#,
        expect![[r#"
            ~ room 2 per_move 1h resign ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            wait 1h
              @3600s timeout
              count ClockTimeout
              write action #0 seat 0 "resign" -> ok
              count ActionApplied
              count StandInAction
              count GameFinished
              write result winners [1] -> ok
              listed Finished 2/2 host ann
              c1 <- events v1 (2) by stand_in (frame)
              c1 <- lean state v1 to_act - legal - clocks [1000 3600000] (frame)
              c1 <- result winners [1] (frame)
              c2 <- events v1 (2) by stand_in (frame)
              c2 <- lean state v1 to_act - legal - clocks [1000 3600000] (frame)
              c2 <- result winners [1] (frame)
              c1 <- room Finished [ann* bob] you player#0
              c2 <- room Finished [ann* bob] you player#1
              deadline 5400s
        "#]],
    );
}

/// R12.5 with `resign` and three people: the seat resigns and the
/// stand-in plays it from then on, on no clock (R13.2).
#[test]
fn r12_5_a_resigned_seat_of_three_is_played_by_the_stand_in() {
    check(
        r#"
        ~ room 3 per_move 2h resign ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join player
        ~ ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 2h
        cy@c3 act {"take":["white","blue","red"]} v2
        bot answers
        wait 1s
        "#,
        expect![[r#"
            ~ room 3 per_move 2h resign ann@c1
            ~ bob@c2 join player
            ~ cy@c3 join player
            ~ ann@c1 start joined
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r4 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [7200000 7200000* 7200000] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 30 clocks [7200000 7200000* 7200000] (frame)
              c3 <- events v1 (1) (frame)
              c3 <- lean state v1 to_act 1 legal - clocks [7200000 7200000* 7200000] (frame)
              reply ok
            wait 2h
              @7200s timeout
              count ClockTimeout
              write action #1 seat 1 "resign" -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v2 (1) by stand_in (frame)
              c1 <- lean state v2 to_act 1 legal - clocks [7200000 1000 7200000] (frame)
              c2 <- events v2 (1) by stand_in (frame)
              c2 <- lean state v2 to_act 1 legal - clocks [7200000 1000 7200000] (frame)
              c3 <- events v2 (1) by stand_in (frame)
              c3 <- lean state v2 to_act 1 legal - clocks [7200000 1000 7200000] (frame)
              think seat 1 v2 greedy
              deadline none
            cy@c3 act {"take":["white","blue","red"]} v2
              reply rule error not_your_turn (R11.4)
            bot answers
              deadline 7201s
            wait 1s
              @7201s timeout
              write action #2 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v3 (1) by stand_in (frame)
              c1 <- lean state v3 to_act 2 legal - clocks [7200000 7200000 7200000*] (frame)
              c2 <- events v3 (1) by stand_in (frame)
              c2 <- lean state v3 to_act 2 legal - clocks [7200000 7200000 7200000*] (frame)
              c3 <- events v3 (1) by stand_in (frame)
              c3 <- lean state v3 to_act 2 legal 28 clocks [7200000 7200000 7200000*] (frame)
              deadline 14401s
        "#]],
    );
}

/// R12.5: a turn-based room waits for its players with nobody connected:
/// before the start up to 14 days after the last thing that happened in it
/// (a join, a leave), and its game as long as it runs (the deadline still
/// does); none of the lifetimes of a live room close it.
#[test]
fn r12_5_a_turn_based_room_outlives_the_away() {
    check(
        r#"
        ~ room 2 per_move 336h ann@c1
        ann@c1 detach
        wait 13d
        ann@c1 join player
        ~ bob@c2 join player
        ~ ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 300h
        "#,
        expect![[r#"
            ~ room 2 per_move 336h ann@c1
            ann@c1 detach
              release c1
              reply ok
            wait 13d
            ann@c1 join player
              c1 <- room Waiting [ann* -] you player#0 id=r2
              reply joined player#0
              deadline 2332800s
            ~ bob@c2 join player
            ~ ann@c1 start joined
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
            wait 300h
        "#]],
    );
}

/// R12.5 before the start: a player who leaves a turn-based room keeps the
/// seat (to come back days later, or to play elsewhere meanwhile); the
/// host role goes to whoever is present, who may start. `give_up` frees a
/// seat before the start, and is refused once the game runs (resign, R13).
#[test]
fn r12_5_leaving_a_turn_based_room_before_the_start_keeps_the_seat() {
    check(
        r#"
        ~ room 3 per_move 24h ann@c1
        ann@c1 leave
        bob@c2 join player
        cy@c3 join player
        cy@c3 give_up
        bob@c2 start joined
        bob@c2 give_up
        "#,
        expect![[r#"
            ~ room 3 per_move 24h ann@c1
            ann@c1 leave
              c1 <- left id=r1
              release c1
              reply ok
            bob@c2 join player
              c2 <- room Waiting [ann~ bob* -] you player#1 id=r2
              reply joined player#1
              listed Waiting 2/3 host bob
            cy@c3 join player
              c2 <- room Waiting [ann~ bob* cy] you player#1
              c3 <- room Waiting [ann~ bob* cy] you player#2 id=r3
              reply joined player#2
              listed Waiting 3/3 host bob
            cy@c3 give_up
              c3 <- left id=r4
              release c3
              c2 <- room Waiting [ann~ bob* -] you player#1
              reply ok
              listed Waiting 2/3 host bob
            bob@c2 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c2 <- room Playing [ann~ bob*] you player#1 id=r5
              c2 <- state v0 to_act 0 legal - clocks [86400000* 86400000]
              reply ok
              notify ann your_turn 86400s left
              listed Playing 2/2 host bob
              deadline 86400s
            bob@c2 give_up
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
        "#]],
    );
}

/// Issue 25: in a turn-based room a player who is away is told when a turn
/// of theirs starts (once, with what is left of it), when someone writes in
/// the chat (who, not what; at most once in ten minutes), and when the
/// game ends. Those at the table
/// are told nothing this way, nor is anyone told of a turn the stand-in
/// plays.
#[test]
fn r12_5_players_away_are_told_of_their_turn_the_chat_and_the_end() {
    check(
        r#"
        ~ room 2 per_move 24h ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        bob@c2 detach
        wait 1h
        ann@c1 act {"take":["white","blue","green"]} v0
        ann@c1 chat your move
        ann@c1 chat please
        wait 10m
        ann@c1 chat still there?
        bob@c3 join player
        bob@c3 act {"take":["white","blue","black"]} v1
        bob@c3 detach
        ann@c1 resign
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            bob@c2 detach
              release c2
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
            wait 1h
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r4 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [86400000 86400000*] (frame)
              reply ok
              notify bob your_turn 86400s left
              deadline 90000s
            ann@c1 chat your move
              notify bob chat from ann
              c1 <- chat L1 ann#0: your move id=r5
              reply ok
            ann@c1 chat please
              c1 <- chat L2 ann#0: please id=r6
              reply ok
            wait 10m
            ann@c1 chat still there?
              notify bob chat from ann
              c1 <- chat L3 ann#0: still there? id=r7
              reply ok
            bob@c3 join player
              c1 <- room Playing [ann* bob] you player#0
              c3 <- room Playing [ann* bob] you player#1 id=r8
              c3 <- history v1 (1 actions)
              c3 <- state v1 to_act 1 legal 27 clocks [86400000 85800000*]
              c3 <- chat_history [ann#0: your move | ann#0: please | ann#0: still there?]
              reply joined player#1
            bob@c3 act {"take":["white","blue","black"]} v1
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [86400000* 86400000] (frame)
              c3 <- events v2 (1) id=r9 (frame)
              c3 <- lean state v2 to_act 0 legal - clocks [86400000* 86400000] (frame)
              reply ok
              deadline 90600s
            bob@c3 detach
              release c3
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
            ann@c1 resign
              write action #2 seat 0 "resign" -> ok
              count ActionApplied
              count GameFinished
              write result winners [1] -> ok
              listed Finished 2/2 host ann
              c1 <- events v3 (2) id=r11 (frame)
              c1 <- lean state v3 to_act - legal - clocks [86400000 86400000] (frame)
              c1 <- result winners [1] (frame)
              c1 <- room Finished [ann* bob~] you player#0
              reply ok
              notify bob game_over
              deadline 6000s
        "#]],
    );
}

/// R12.5 with `resign`: when the resignation cannot be stored, the seat is
/// not handed to the stand-in; the resignation is tried again a second
/// later.
#[test]
fn r12_5_a_resignation_that_cannot_be_stored_is_tried_again() {
    check(
        r#"
        ~ room 3 per_move 1h resign ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join player
        ~ ann@c1 start joined
        store fails unavailable
        wait 1h
        wait 1s
        "#,
        expect![[r#"
            ~ room 3 per_move 1h resign ann@c1
            ~ bob@c2 join player
            ~ cy@c3 join player
            ~ ann@c1 start joined
            store fails unavailable
            wait 1h
              @3600s timeout
              count ClockTimeout
              write action #0 seat 0 "resign" -> Unavailable
              deadline 3601s
            wait 1s
              @3601s timeout
              count ClockTimeout
              write action #0 seat 0 "resign" -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v1 (1) by stand_in (frame)
              c1 <- lean state v1 to_act 0 legal - clocks [1000 3600000 3600000] (frame)
              c2 <- events v1 (1) by stand_in (frame)
              c2 <- lean state v1 to_act 0 legal - clocks [1000 3600000 3600000] (frame)
              c3 <- events v1 (1) by stand_in (frame)
              c3 <- lean state v1 to_act 0 legal - clocks [1000 3600000 3600000] (frame)
              think seat 0 v1 greedy
              deadline none
        "#]],
    );
}

/// R12.5: a turn-based room nobody joins closes 14 days after the last
/// thing that happened in it.
#[test]
fn r12_5_a_turn_based_room_nobody_joins_closes_after_fourteen_days() {
    check(
        r#"
        ~ room 2 per_move 24h ann@c1
        ann@c1 leave
        wait 14d
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
            ann@c1 leave
              c1 <- left id=r1
              release c1
              reply ok
            wait 14d
              @1209600s timeout
              closed "closed-idle" sessions ["ann"] farewell []: room_closed "closed-idle"
              deadline none
        "#]],
    );
}
