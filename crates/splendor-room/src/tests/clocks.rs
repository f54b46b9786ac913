//! Turn clocks and stand-ins (RULES.md R12) on the room core, with time
//! passed in: no real seconds, nothing to flake. In the `state` lines,
//! `clocks [..]` lists each seat's milliseconds left; `*` runs, `!` is
//! played by the stand-in, `b` is a bot (no clock).

use expect_test::expect;

use super::check::check;

/// R12.1: only the clock of the seat the game waits for runs; it stops
/// when an action is accepted, and the increment is added when the turn
/// ends.
#[test]
fn r12_1_a_clock_runs_only_during_its_seats_turn_and_gains_the_increment() {
    check(
        r#"
        room 2 clock 60s+10s ann@c1
        bob@c2 join player
        ann@c1 start joined
        wait 5s
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 20s
        bob@c2 act {"take":["white","blue","green"]} v1
        "#,
        expect![[r#"
            room 2 clock 60s+10s ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [60000* 60000]
              c2 <- state v0 to_act 0 legal - clocks [60000* 60000]
              reply ok
              listed Playing 2/2 host ann
              deadline 60s
            wait 5s
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [65000 60000*] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [65000 60000*] (frame)
              reply ok
              deadline 65s
            wait 20s
            bob@c2 act {"take":["white","blue","green"]} v1
              write action #1 seat 1 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) (frame)
              c1 <- lean state v2 to_act 0 legal 27 clocks [65000* 50000] (frame)
              c2 <- events v2 (1) id=r4 (frame)
              c2 <- lean state v2 to_act 0 legal - clocks [65000* 50000] (frame)
              reply ok
              deadline 90s
        "#]],
    );
}

/// R12.2: out of time, the stand-in (greedy, after the bots' delay)
/// plays the turn (the player may not take it back in the middle) and the
/// seat is marked; at the seat's next turn its
/// player acts within the grace and has the seat back, with what was left
/// of the grace as the bank (plus the increment).
#[test]
fn r12_2_a_player_out_of_time_is_replaced_by_the_stand_in_and_gets_the_seat_back() {
    check(
        r#"
        room 2 clock 30s+5s ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 30s
        bob@c2 act {"take":["white","blue","black"]} v1
        bot answers
        wait 1s
        ann@c1 act {"take":["white","blue","red"]} v2
        wait 4s
        bob@c2 act {"take":["white","blue","black"]} v3
        "#,
        expect![[r#"
            room 2 clock 30s+5s ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [30000* 30000]
              c2 <- state v0 to_act 0 legal - clocks [30000* 30000]
              reply ok
              listed Playing 2/2 host ann
              deadline 30s
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [35000 30000*] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [35000 30000*] (frame)
              reply ok
            wait 30s
              @30s timeout
              count ClockTimeout
              c1 <- history v1 (1 actions)
              c1 <- state v1 to_act 1 legal - clocks [35000 0!]
              c2 <- history v1 (1 actions)
              c2 <- state v1 to_act 1 legal 27 clocks [35000 0!]
              think seat 1 v1 greedy
              deadline none
            bob@c2 act {"take":["white","blue","black"]} v1
              reply stand_in_turn: room-stand-in-turn
            bot answers
              deadline 31s
            wait 1s
              @31s timeout
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v2 (1) by stand_in (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [35000* 0!] (frame)
              c2 <- events v2 (1) by stand_in (frame)
              c2 <- lean state v2 to_act 0 legal - clocks [35000* 0!] (frame)
              deadline 66s
            ann@c1 act {"take":["white","blue","red"]} v2
              write action #2 seat 0 {"take":["white","blue","red"]} -> ok
              count ActionApplied
              c1 <- events v3 (1) id=r5 (frame)
              c1 <- lean state v3 to_act 1 legal - clocks [40000 10000*!] (frame)
              c2 <- events v3 (1) (frame)
              c2 <- lean state v3 to_act 1 legal 25 clocks [40000 10000*!] (frame)
              reply ok
              deadline 41s
            wait 4s
            bob@c2 act {"take":["white","blue","black"]} v3
              write action #3 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              c1 <- events v4 (1) (frame)
              c1 <- lean state v4 to_act 0 legal 17 clocks [40000* 11000] (frame)
              c2 <- events v4 (1) id=r6 (frame)
              c2 <- lean state v4 to_act 0 legal - clocks [40000* 11000] (frame)
              reply ok
              deadline 75s
        "#]],
    );
}

/// R12.2: a marked seat whose player does not act within the grace is
/// played by the stand-in again.
#[test]
fn r12_2_a_marked_seat_silent_for_the_grace_is_played_by_the_stand_in_again() {
    check(
        r#"
        room 2 clock 20s+0s ann@c1
        bob@c2 join player
        ann@c1 start joined
        wait 20s
        bot answers
        wait 1s
        bob@c2 act {"take":["white","blue","green"]} v1
        wait 10s
        bot answers
        wait 1s
        "#,
        expect![[r#"
            room 2 clock 20s+0s ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [20000* 20000]
              c2 <- state v0 to_act 0 legal - clocks [20000* 20000]
              reply ok
              listed Playing 2/2 host ann
              deadline 20s
            wait 20s
              @20s timeout
              count ClockTimeout
              c1 <- state v0 to_act 0 legal 30 clocks [0! 20000]
              c2 <- state v0 to_act 0 legal - clocks [0! 20000]
              think seat 0 v0 greedy
              deadline none
            bot answers
              deadline 21s
            wait 1s
              @21s timeout
              write action #0 seat 0 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v1 (1) by stand_in (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [0! 20000*] (frame)
              c2 <- events v1 (1) by stand_in (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [0! 20000*] (frame)
              deadline 41s
            bob@c2 act {"take":["white","blue","green"]} v1
              write action #1 seat 1 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [10000*! 20000] (frame)
              c2 <- events v2 (1) id=r3 (frame)
              c2 <- lean state v2 to_act 0 legal - clocks [10000*! 20000] (frame)
              reply ok
              deadline 31s
            wait 10s
              @31s timeout
              count ClockTimeout
              c1 <- history v2 (2 actions)
              c1 <- state v2 to_act 0 legal 26 clocks [0! 20000]
              c2 <- history v2 (2 actions)
              c2 <- state v2 to_act 0 legal - clocks [0! 20000]
              think seat 0 v2 greedy
              deadline none
            bot answers
              deadline 32s
            wait 1s
              @32s timeout
              write action #2 seat 0 {"take":["white","red","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v3 (1) by stand_in (frame)
              c1 <- lean state v3 to_act 1 legal - clocks [0! 20000*] (frame)
              c2 <- events v3 (1) by stand_in (frame)
              c2 <- lean state v3 to_act 1 legal 25 clocks [0! 20000*] (frame)
              deadline 52s
        "#]],
    );
}

/// R12.3: with `stand_in_when_away`, a seat whose player is away when its
/// turn starts is played by the stand-in after the grace, not after the
/// whole bank; that is no time-out: the 15 s waited come from Bob's bank,
/// the increment is added at the turn's end, the seat is not marked (no
/// `!`), and he keeps the rest (285 s, then 300 s).
#[test]
fn r12_3_an_away_players_turn_goes_to_the_stand_in_after_the_grace() {
    check(
        r#"
        room 2 clock 300s+15s away ann@c1
        bob@c2 join player
        ann@c1 start joined
        bob@c2 detach
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 15s
        bot answers
        wait 1s
        "#,
        expect![[r#"
            room 2 clock 300s+15s away ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [300000* 300000]
              c2 <- state v0 to_act 0 legal - clocks [300000* 300000]
              reply ok
              listed Playing 2/2 host ann
              deadline 300s
            bob@c2 detach
              release c2
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r4 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [315000 15000*] (frame)
              reply ok
              deadline 15s
            wait 15s
              @15s timeout
              count ClockTimeout
              c1 <- history v1 (1 actions)
              c1 <- state v1 to_act 1 legal - clocks [315000 285000]
              think seat 1 v1 greedy
              deadline none
            bot answers
              deadline 16s
            wait 1s
              @16s timeout
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v2 (1) by stand_in (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [315000* 300000] (frame)
              deadline 331s
        "#]],
    );
}

/// R12.3: a player who goes away during the turn has the grace from the
/// moment they went away (20 s in, the stand-in at 35 s: 300 - 35 + 15 =
/// 280 s kept); at the next turn, still away, the grace again (280 - 15 +
/// 15).
#[test]
fn r12_3_a_player_who_goes_away_during_the_turn_has_the_grace_from_then() {
    check(
        r#"
        room 2 clock 300s+15s away ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 20s
        bob@c2 detach
        wait 15s
        bot answers
        wait 1s
        ann@c1 act {"take":["white","blue","red"]} v2
        wait 15s
        "#,
        expect![[r#"
            room 2 clock 300s+15s away ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [300000* 300000]
              c2 <- state v0 to_act 0 legal - clocks [300000* 300000]
              reply ok
              listed Playing 2/2 host ann
              deadline 300s
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [315000 300000*] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 clocks [315000 300000*] (frame)
              reply ok
            wait 20s
            bob@c2 detach
              release c2
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
              deadline 35s
            wait 15s
              @35s timeout
              count ClockTimeout
              c1 <- history v1 (1 actions)
              c1 <- state v1 to_act 1 legal - clocks [315000 265000]
              think seat 1 v1 greedy
              deadline none
            bot answers
              deadline 36s
            wait 1s
              @36s timeout
              write action #1 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v2 (1) by stand_in (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [315000* 280000] (frame)
              deadline 351s
            ann@c1 act {"take":["white","blue","red"]} v2
              write action #2 seat 0 {"take":["white","blue","red"]} -> ok
              count ActionApplied
              c1 <- events v3 (1) id=r5 (frame)
              c1 <- lean state v3 to_act 1 legal - clocks [330000 15000*] (frame)
              reply ok
              deadline 51s
            wait 15s
              @51s timeout
              count ClockTimeout
              c1 <- history v3 (3 actions)
              c1 <- state v3 to_act 1 legal - clocks [330000 265000]
              think seat 1 v3 greedy
              deadline none
        "#]],
    );
}

/// R12.3: back within the grace, the player has the bank again: Bob,
/// away at the start of his turn, reconnects 10 s in and acts 20 s in
/// (300 - 20 + 15 = 295 s); the stand-in never came.
#[test]
fn r12_3_a_player_back_within_the_grace_has_the_bank_again() {
    check(
        r#"
        room 2 clock 300s+15s away ann@c1
        bob@c2 join player
        ann@c1 start joined
        bob@c2 detach
        ann@c1 act {"take":["white","blue","green"]} v0
        wait 10s
        bob@c3 join player
        wait 10s
        bob@c3 act {"take":["white","blue","red"]} v1
        "#,
        expect![[r#"
            room 2 clock 300s+15s away ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [300000* 300000]
              c2 <- state v0 to_act 0 legal - clocks [300000* 300000]
              reply ok
              listed Playing 2/2 host ann
              deadline 300s
            bob@c2 detach
              release c2
              c1 <- room Playing [ann* bob~] you player#0
              reply ok
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r4 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [315000 15000*] (frame)
              reply ok
              deadline 15s
            wait 10s
            bob@c3 join player
              c1 <- room Playing [ann* bob] you player#0
              c3 <- room Playing [ann* bob] you player#1 id=r5
              c3 <- history v1 (1 actions)
              c3 <- state v1 to_act 1 legal 27 clocks [315000 290000*]
              reply joined player#1
              deadline 300s
            wait 10s
            bob@c3 act {"take":["white","blue","red"]} v1
              write action #1 seat 1 {"take":["white","blue","red"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) (frame)
              c1 <- lean state v2 to_act 0 legal 26 clocks [315000* 295000] (frame)
              c3 <- events v2 (1) id=r6 (frame)
              c3 <- lean state v2 to_act 0 legal - clocks [315000* 295000] (frame)
              reply ok
              deadline 335s
        "#]],
    );
}

/// R12.1: a bot's seat has no clock; a room without a clock shows none.
#[test]
fn r12_1_bots_have_no_clock_and_rooms_without_one_show_none() {
    check(
        r#"
        room 2 clock 60s+0s ann@c1
        ann@c1 add_bot greedy
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        "#,
        expect![[r#"
            room 2 clock 60s+0s ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [60000* 60000b]
              reply ok
              listed Playing 2/2 host ann
              deadline 60s
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r3 (frame)
              c1 <- lean state v1 to_act 1 legal - clocks [60000 60000b] (frame)
              reply ok
              think seat 1 v1 greedy
              deadline none
        "#]],
    );
}

/// A restart costs nobody time: after a restore every player is
/// disconnected, but the turn in progress began while its player was
/// there, so R12.3's grace does not apply to it; the next turns it does.
/// Nothing happens at the grace (15 s): the first deadline is R12.6's 2
/// minutes with nobody connected (tests/deserted.rs), then the bank.
#[test]
fn r12_3_a_restart_does_not_make_the_player_on_move_away() {
    check(
        r#"
        restored 2 clock 300s+15s away ann bob
        wait 119s
        ann@c1 join player
        "#,
        expect![[r#"
            restored 2 clock 300s+15s away ann bob
              deadline 120s
            wait 119s
            ann@c1 join player
              c1 <- room Playing [ann* bob~] you player#0 id=r1
              c1 <- state v0 to_act 0 legal 30 clocks [181000* 300000]
              reply joined player#0
              deadline 300s
        "#]],
    );
}
