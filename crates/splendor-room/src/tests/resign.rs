//! R13 on the core: a resignation is stored and sent like every action;
//! the game ends at once or the stand-in plays the seat to the end.

use expect_test::expect;

use super::check::check;

/// R13.1, R13.2: out of turn, one of two people resigns; one person is
/// left in play, so the game ends at once and the result is stored.
#[test]
fn r13_2_one_of_two_resigning_out_of_turn_ends_the_game_at_once() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        bob@c2 resign
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            bob@c2 resign
              write action #0 seat 1 "resign" -> ok
              count ActionApplied
              count GameFinished
              write result winners [0] -> ok
              listed Finished 2/2 host ann
              c1 <- events v1 (2) (frame)
              c1 <- lean state v1 to_act - legal - (frame)
              c1 <- result winners [0] (frame)
              c2 <- events v1 (2) id=r3 (frame)
              c2 <- lean state v1 to_act - legal - (frame)
              c2 <- result winners [0] (frame)
              c1 <- room Finished [ann* bob] you player#0
              c2 <- room Finished [ann* bob] you player#1
              reply ok
              deadline 1800s
        "#]],
    );
}

/// R13.2: with three people one resigns; the stand-in plays that seat
/// when its turn comes (no clock runs for it), the person's own moves are
/// refused, and a second resignation of the seat is a rule error.
#[test]
fn r13_2_with_two_people_left_the_stand_in_plays_the_resigned_seat() {
    check(
        r#"
        ~ room 3 clock 60s+10s ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join player
        ~ ann@c1 start joined
        cy@c3 resign
        cy@c3 resign
        ann@c1 act {"take":["white","blue","green"]} v1
        bob@c2 act {"take":["white","blue","black"]} v2
        cy@c3 act {"take":["white","blue","red"]} v3
        bot answers
        wait 1s
        "#,
        expect![[r#"
            ~ room 3 clock 60s+10s ann@c1
            ~ bob@c2 join player
            ~ cy@c3 join player
            ~ ann@c1 start joined
            cy@c3 resign
              write action #0 seat 2 "resign" -> ok
              count ActionApplied
              c1 <- events v1 (1) (frame)
              c1 <- lean state v1 to_act 0 legal 30 clocks [60000* 60000 60000] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 0 legal - clocks [60000* 60000 60000] (frame)
              c3 <- events v1 (1) id=r4 (frame)
              c3 <- lean state v1 to_act 0 legal - clocks [60000* 60000 60000] (frame)
              reply ok
            cy@c3 resign
              reply rule error already_resigned (R13.1)
            ann@c1 act {"take":["white","blue","green"]} v1
              write action #1 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v2 (1) id=r6 (frame)
              c1 <- lean state v2 to_act 1 legal - clocks [70000 60000* 60000] (frame)
              c2 <- events v2 (1) (frame)
              c2 <- lean state v2 to_act 1 legal 30 clocks [70000 60000* 60000] (frame)
              c3 <- events v2 (1) (frame)
              c3 <- lean state v2 to_act 1 legal - clocks [70000 60000* 60000] (frame)
              reply ok
            bob@c2 act {"take":["white","blue","black"]} v2
              write action #2 seat 1 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              c1 <- events v3 (1) (frame)
              c1 <- lean state v3 to_act 2 legal - clocks [70000 70000 60000] (frame)
              c2 <- events v3 (1) id=r7 (frame)
              c2 <- lean state v3 to_act 2 legal - clocks [70000 70000 60000] (frame)
              c3 <- events v3 (1) (frame)
              c3 <- lean state v3 to_act 2 legal - clocks [70000 70000 60000] (frame)
              reply ok
              think seat 2 v3 greedy
              deadline none
            cy@c3 act {"take":["white","blue","red"]} v3
              reply resigned: room-resigned
            bot answers
              deadline 1s
            wait 1s
              @1s timeout
              write action #3 seat 2 {"take":["white","blue","black"]} -> ok
              count ActionApplied
              count StandInAction
              c1 <- events v4 (1) by stand_in (frame)
              c1 <- lean state v4 to_act 0 legal 27 clocks [70000* 70000 60000] (frame)
              c2 <- events v4 (1) by stand_in (frame)
              c2 <- lean state v4 to_act 0 legal - clocks [70000* 70000 60000] (frame)
              c3 <- events v4 (1) by stand_in (frame)
              c3 <- lean state v4 to_act 0 legal - clocks [70000* 70000 60000] (frame)
              deadline 71s
        "#]],
    );
}

/// Who may resign: a seated player of a running game, on its connection.
#[test]
fn r13_1_only_a_seated_player_of_a_running_game_resigns() {
    check(
        r#"
        ~ room 2 ann@c1
        ann@c1 resign
        ~ bob@c2 join player
        ~ eve@c3 join spectator
        ~ ann@c1 start joined
        eve@c3 resign
        zed@c9 resign
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ann@c1 resign
              reply game_not_started: room-game-not-started
            ~ bob@c2 join player
            ~ eve@c3 join spectator
            ~ ann@c1 start joined
            eve@c3 resign
              reply spectator_cannot_act: room-spectators-cannot-act
            zed@c9 resign
              reply not_in_room: room-not-in
        "#]],
    );
}

/// The operators remove a player mid-game: told why and released, the seat
/// resigns (R13: the stand-in plays it on), and the session may not come
/// back; a spectator and a player before the start go too.
#[test]
fn the_operators_remove_a_player_whose_seat_resigns_and_who_may_not_come_back() {
    check(
        r#"
        ~ room 3 ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join player
        ~ eve@c4 join spectator
        ~ ann@c1 start joined
        cy@c3 removed spamming the chat
        cy@c5 join player
        eve@c4 removed rude
        zed@c9 removed nobody
        "#,
        expect![[r#"
            ~ room 3 ann@c1
            ~ bob@c2 join player
            ~ cy@c3 join player
            ~ eve@c4 join spectator
            ~ ann@c1 start joined
            cy@c3 removed spamming the chat
              c3 <- room_closed "closed-removed(reason=\"spamming the chat\")"
              release c3
              c1 <- room Playing [ann* bob cy~] watching ["eve"] you player#0
              c2 <- room Playing [ann* bob cy~] watching ["eve"] you player#1
              c4 <- room Playing [ann* bob cy~] watching ["eve"] you spectator (frame)
              write action #0 seat 2 "resign" -> ok
              count ActionApplied
              c1 <- events v1 (1) (frame)
              c1 <- lean state v1 to_act 0 legal 30 (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 0 legal - (frame)
              c4 <- events v1 (1) (frame)
              c4 <- lean state v1 to_act 0 legal - (frame)
              reply ok
            cy@c5 join player
              reply removed: room-removed
              release c5
            eve@c4 removed rude
              c4 <- room_closed "closed-removed(reason=\"rude\")"
              release c4
              c1 <- room Playing [ann* bob cy~] you player#0
              c2 <- room Playing [ann* bob cy~] you player#1
              reply ok
            zed@c9 removed nobody
              reply not_in_room: room-not-in
        "#]],
    );
}

#[test]
fn a_player_removed_before_the_start_frees_the_seat() {
    check(
        r#"
        ~ room 3 ann@c1
        ~ bob@c2 join player
        bob@c2 removed spamming
        bob@c2 join spectator
        "#,
        expect![[r#"
            ~ room 3 ann@c1
            ~ bob@c2 join player
            bob@c2 removed spamming
              c2 <- room_closed "closed-removed(reason=\"spamming\")"
              release c2
              c1 <- room Waiting [ann* - -] you player#0
              reply ok
              listed Waiting 1/3 host ann
            bob@c2 join spectator
              reply removed: room-removed
              release c2
        "#]],
    );
}
