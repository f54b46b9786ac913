//! Starting and playing a game on the core: who may, in which order, what
//! everyone is sent.

use expect_test::expect;

use super::check::check;

#[test]
fn only_a_seated_host_starts_and_only_seated_players_act() {
    check(
        r#"
        room 4 ann@c1
        ann@c1 start random
        bob@c2 join player
        cy@c3 join spectator
        bob@c2 start random
        dee@c4 start random
        cy@c3 act "pass"
        bob@c2 act "pass"
        dee@c4 act "pass"
        bob@c9 act "pass"
        probe
        "#,
        expect![[r#"
            room 4 ann@c1
              c1 <- room Waiting [ann* - - -] you player#0 id=create
              deadline 3600s
            ann@c1 start random
              reply not_enough_players: room-not-enough-players
            bob@c2 join player
              c1 <- room Waiting [ann* bob - -] you player#0
              c2 <- room Waiting [ann* bob - -] you player#1 id=r2
              reply joined player#1
              listed Waiting 2/4 host ann
            cy@c3 join spectator
              c1 <- room Waiting [ann* bob - -] watching ["cy"] you player#0
              c2 <- room Waiting [ann* bob - -] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob - -] watching ["cy"] you spectator id=r3
              reply joined spectator
            bob@c2 start random
              reply not_host: room-not-host
            dee@c4 start random
              reply not_in_room: room-not-in
            cy@c3 act "pass"
              reply spectator_cannot_act: room-spectators-cannot-act
            bob@c2 act "pass"
              reply game_not_started: room-game-not-started
            dee@c4 act "pass"
              reply not_in_room: room-not-in
            bob@c9 act "pass"
              reply not_in_room: room-not-in
            probe
              RoomProbe { status: Waiting, version: None, seated: 2, connected_players: 2, spectators: 1 }
        "#]],
    );
}

/// R2.4: with `seat_order: joined` the players sit and play in the order
/// they joined, so the first to join (the host) plays first.
#[test]
fn r2_4_in_join_order_the_first_to_join_plays_first() {
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        cy@c3 join player
        ann@c1 start joined
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
            cy@c3 join player
              c1 <- room Waiting [ann* bob cy] you player#0
              c2 <- room Waiting [ann* bob cy] you player#1
              c3 <- room Waiting [ann* bob cy] you player#2 id=r2
              reply joined player#2
              listed Waiting 3/3 host ann
            ann@c1 start joined
              write game started ["ann", "bob", "cy"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob cy] you player#0 id=r3
              c2 <- room Playing [ann* bob cy] you player#1
              c3 <- room Playing [ann* bob cy] you player#2
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              c3 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 3/3 host ann
              deadline none
        "#]],
    );
}

/// R2.4: by default the seat order is random, drawn from the game's seed
/// (here the core's RNG is seeded by the test, so the order is fixed).
#[test]
fn r2_4_a_random_seat_order_comes_from_the_seed() {
    check(
        r#"
        room 4 ann@c1
        bob@c2 join player
        cy@c3 join player
        dee@c4 join player
        ann@c1 start random
        "#,
        expect![[r#"
            room 4 ann@c1
              c1 <- room Waiting [ann* - - -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob - -] you player#0
              c2 <- room Waiting [ann* bob - -] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/4 host ann
            cy@c3 join player
              c1 <- room Waiting [ann* bob cy -] you player#0
              c2 <- room Waiting [ann* bob cy -] you player#1
              c3 <- room Waiting [ann* bob cy -] you player#2 id=r2
              reply joined player#2
              listed Waiting 3/4 host ann
            dee@c4 join player
              c1 <- room Waiting [ann* bob cy dee] you player#0
              c2 <- room Waiting [ann* bob cy dee] you player#1
              c3 <- room Waiting [ann* bob cy dee] you player#2
              c4 <- room Waiting [ann* bob cy dee] you player#3 id=r3
              reply joined player#3
              listed Waiting 4/4 host ann
            ann@c1 start random
              write game started ["bob", "cy", "ann", "dee"] Options { first_seat: None, rulings: Rulings(2) } -> ok
              count GameStarted
              c2 <- room Playing [bob cy ann* dee] you player#0
              c3 <- room Playing [bob cy ann* dee] you player#1
              c1 <- room Playing [bob cy ann* dee] you player#2 id=r4
              c4 <- room Playing [bob cy ann* dee] you player#3
              c2 <- state v0 to_act 3 legal -
              c3 <- state v0 to_act 3 legal -
              c1 <- state v0 to_act 3 legal -
              c4 <- state v0 to_act 3 legal 30
              reply ok
              listed Playing 4/4 host ann
              deadline none
        "#]],
    );
}

#[test]
fn an_action_is_stored_then_everyone_gets_their_events_and_view() {
    // The actor's events carry its request id; the player now to act gets
    // the legal actions; the reply comes last.
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ cy@c3 join spectator
        ~ ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]} v0
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ cy@c3 join spectator
            ~ ann@c1 start joined
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r4 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 (frame)
              c3 <- events v1 (1) (frame)
              c3 <- lean state v1 to_act 1 legal - (frame)
              reply ok
        "#]],
    );
}

/// R11.3: a refused action changes nothing and does not advance the turn;
/// a stale expected version applies nothing.
#[test]
fn r11_3_stale_versions_and_rule_errors_change_nothing() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        bob@c2 act {"take":["white","blue","green"]}
        ann@c1 act {"take_two":"white"} v1
        ann@c1 act {"buy":89}
        ann@c1 act {"noble":3}
        probe
        ann@c1 act {"take":["white","blue","green"]} v0
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            bob@c2 act {"take":["white","blue","green"]}
              reply rule error not_your_turn (R11.4)
            ann@c1 act {"take_two":"white"} v1
              reply stale_version: room-stale-version(current=0, expected=1)
            ann@c1 act {"buy":89}
              reply rule error card_not_available (R7.1)
            ann@c1 act {"noble":3}
              reply rule error wrong_phase (R3)
            probe
              RoomProbe { status: Playing, version: Some(0), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r7 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 (frame)
              reply ok
        "#]],
    );
}

#[test]
fn a_game_runs_to_the_end_and_everyone_gets_the_result() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        play end
        ann@c1 sync
        ann@c1 act "pass"
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            play end
              played 73: RoomProbe { status: Finished, version: Some(73), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 sync
              c1 <- room Finished [ann* bob] you player#0 id=r76
              c1 <- history v73 (73 actions)
              c1 <- state v73 to_act - legal -
              c1 <- result winners [0]
              reply ok
            ann@c1 act "pass"
              reply game_over: rule-game-over
        "#]],
    );
}

#[test]
fn a_game_cannot_start_twice_nor_be_joined_once_started() {
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 start joined
        cy@c3 join player
        cy@c3 join spectator
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
            ann@c1 start joined
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
            cy@c3 join player
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
              release c3
            cy@c3 join spectator
              c1 <- room Playing [ann* bob] watching ["cy"] you player#0
              c2 <- room Playing [ann* bob] watching ["cy"] you player#1
              c3 <- room Playing [ann* bob] watching ["cy"] you spectator id=r5
              c3 <- state v0 to_act 0 legal -
              reply joined spectator
        "#]],
    );
}

/// Protocol 2: after an action, a connection gets a lean state unless it
/// asked for verbose ones; at the start (and at join, resume and sync)
/// everyone gets the full state.
#[test]
fn after_an_action_states_are_lean_unless_the_connection_asked_for_verbose() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player verbose
        ~ cy@c3 join spectator verbose
        ~ dee@c4 join spectator
        ~ ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]}
        dee@c4 sync
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player verbose
            ~ cy@c3 join spectator verbose
            ~ dee@c4 join spectator
            ~ ann@c1 start joined
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r5 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1)
              c2 <- state v1 to_act 1 legal 27
              c3 <- events v1 (1) (frame)
              c3 <- state v1 to_act 1 legal - (frame)
              c4 <- events v1 (1) (frame)
              c4 <- lean state v1 to_act 1 legal - (frame)
              reply ok
            dee@c4 sync
              c4 <- room Playing [ann* bob] watching ["cy", "dee"] you spectator id=r6
              c4 <- history v1 (1 actions)
              c4 <- state v1 to_act 1 legal -
              reply ok
        "#]],
    );
}
