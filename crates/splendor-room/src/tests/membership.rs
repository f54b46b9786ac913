//! Joining, leaving, reconnecting and the host role, on the core.

use expect_test::expect;

use super::check::check;

#[test]
fn the_host_gets_the_room_and_others_join() {
    // The host is told with the create request's id; a joiner gets the room
    // with its request id, everyone else the room without one.
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
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
        "#]],
    );
}

#[test]
fn a_full_room_refuses_players_but_takes_spectators() {
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
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
            cy@c3 join player
              reply room_full: room-full(example="\"as\":\"spectator\"")
              release c3
            cy@c3 join spectator
              c1 <- room Waiting [ann* bob] watching ["cy"] you player#0
              c2 <- room Waiting [ann* bob] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob] watching ["cy"] you spectator id=r3
              reply joined spectator
        "#]],
    );
}

#[test]
fn the_host_role_passes_on_and_the_last_player_leaving_closes_the_room() {
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        ann@c1 leave
        ann@c1 leave
        bob@c2 leave
        bob@c2 sync
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
            ann@c1 leave
              c1 <- left id=r2
              release c1
              c2 <- room Waiting [- bob*] you player#1
              reply ok
              listed Waiting 1/2 host bob
            ann@c1 leave
              reply not_in_room: room-not-in
            bob@c2 leave
              c2 <- left id=r4
              release c2
              reply ok
              closed "closed-everyone-left" sessions [] farewell []: room_closed "closed-everyone-left"
              deadline none
            bob@c2 sync
              reply room_closed: room-closed
        "#]],
    );
}

/// A waiting room whose host's connection ends would otherwise be stuck:
/// nobody else may start it, and it never expires while someone waits in it.
#[test]
fn a_disconnected_host_hands_the_start_to_a_connected_player() {
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        ann@c1 detach
        ann@c4 join player
        ann@c4 start joined
        bob@c2 start joined
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
            ann@c1 detach
              release c1
              c2 <- room Waiting [ann~ bob* -] you player#1
              reply ok
              listed Waiting 2/3 host bob
            ann@c4 join player
              c4 <- room Waiting [ann bob* -] you player#0 id=r3
              c2 <- room Waiting [ann bob* -] you player#1
              reply joined player#0
            ann@c4 start joined
              reply not_host: room-not-host
            bob@c2 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c4 <- room Playing [ann bob*] you player#0
              c2 <- room Playing [ann bob*] you player#1 id=r5
              c4 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 2/2 host bob
              deadline none
        "#]],
    );
}

#[test]
fn a_player_joining_a_room_whose_host_is_away_becomes_host() {
    check(
        r#"
        room 2 ann@c1
        ann@c1 detach
        bob@c2 join player
        bob@c2 start random
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 detach
              release c1
              reply ok
              deadline 60s
            bob@c2 join player
              c2 <- room Waiting [ann~ bob*] you player#1 id=r2
              reply joined player#1
              listed Waiting 2/2 host bob
              deadline 3600s
            bob@c2 start random
              write game started ["ann", "bob"] Options { first_seat: None, rulings: Rulings(2) } -> ok
              count GameStarted
              c2 <- room Playing [ann~ bob*] you player#1 id=r3
              c2 <- state v0 to_act 1 legal 30
              reply ok
              listed Playing 2/2 host bob
              deadline none
        "#]],
    );
}

#[test]
fn a_reconnecting_player_gets_the_seat_back_and_replaces_the_old_connection() {
    // Bob's seat stays while he is away; a new connection gets it back; a
    // third replaces the second (closed as replaced), whatever role it asks
    // for; the replaced connection speaks for nobody.
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        bob@c2 detach
        bob@c3 join player
        bob@c4 join spectator
        bob@c3 leave
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
            bob@c2 detach
              release c2
              c1 <- room Waiting [ann* bob~] you player#0
              reply ok
            bob@c3 join player
              c1 <- room Waiting [ann* bob] you player#0
              c3 <- room Waiting [ann* bob] you player#1 id=r3
              reply joined player#1
            bob@c4 join spectator
              c3 <- room_closed "closed-other-device"
              release c3
              c1 <- room Waiting [ann* bob] you player#0
              c4 <- room Waiting [ann* bob] you player#1 id=r4
              reply joined player#1
            bob@c3 leave
              reply not_in_room: room-not-in
        "#]],
    );
}

#[test]
fn a_spectator_joining_again_replaces_its_connection_and_leaves_with_a_goodbye() {
    check(
        r#"
        room 2 ann@c1
        cy@c2 join spectator
        cy@c3 join spectator
        cy@c2 sync
        cy@c3 leave
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            cy@c2 join spectator
              c1 <- room Waiting [ann* -] watching ["cy"] you player#0
              c2 <- room Waiting [ann* -] watching ["cy"] you spectator id=r1
              reply joined spectator
            cy@c3 join spectator
              c2 <- room_closed "closed-other-device"
              release c2
              c1 <- room Waiting [ann* -] watching ["cy"] you player#0
              c3 <- room Waiting [ann* -] watching ["cy"] you spectator id=r2
              reply joined spectator
            cy@c2 sync
              reply not_in_room: room-not-in
            cy@c3 leave
              c3 <- left id=r4
              release c3
              c1 <- room Waiting [ann* -] you player#0
              reply ok
        "#]],
    );
}

#[test]
fn a_connection_that_cannot_receive_is_detached_and_the_room_goes_on() {
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        cy@c3 join spectator
        undeliverable c1
        probe
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
            cy@c3 join spectator
              c1 <- room Waiting [ann* bob] watching ["cy"] you player#0
              c2 <- room Waiting [ann* bob] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob] watching ["cy"] you spectator id=r2
              reply joined spectator
            undeliverable c1
              c2 <- room Waiting [ann~ bob*] watching ["cy"] you player#1
              c3 <- room Waiting [ann~ bob*] watching ["cy"] you spectator (frame)
              release c1
              listed Waiting 2/2 host bob
            probe
              RoomProbe { status: Waiting, version: None, seated: 2, connected_players: 1, spectators: 1 }
        "#]],
    );
}

#[test]
fn every_spectator_gets_the_same_shared_bytes() {
    // A message that several connections get byte for byte is serialised
    // once: the room for spectators (unless it answers one of them), and
    // the whole game for them after each action.
    check(
        r#"
        room 2 ann@c1
        bob@c2 join player
        cy@c3 join spectator
        dee@c4 join spectator
        ann@c1 start joined
        ann@c1 act {"take":["white","blue","green"]}
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
            cy@c3 join spectator
              c1 <- room Waiting [ann* bob] watching ["cy"] you player#0
              c2 <- room Waiting [ann* bob] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob] watching ["cy"] you spectator id=r2
              reply joined spectator
            dee@c4 join spectator
              c1 <- room Waiting [ann* bob] watching ["cy", "dee"] you player#0
              c2 <- room Waiting [ann* bob] watching ["cy", "dee"] you player#1
              c3 <- room Waiting [ann* bob] watching ["cy", "dee"] you spectator (frame)
              c4 <- room Waiting [ann* bob] watching ["cy", "dee"] you spectator id=r3
              reply joined spectator
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] watching ["cy", "dee"] you player#0 id=r4
              c2 <- room Playing [ann* bob] watching ["cy", "dee"] you player#1
              c3 <- room Playing [ann* bob] watching ["cy", "dee"] you spectator (frame)
              c4 <- room Playing [ann* bob] watching ["cy", "dee"] you spectator (frame)
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              c3 <- state v0 to_act 0 legal - (frame)
              c4 <- state v0 to_act 0 legal - (frame)
              reply ok
              listed Playing 2/2 host ann
              deadline none
            ann@c1 act {"take":["white","blue","green"]}
              write action #0 seat 0 {"take":["white","blue","green"]} -> ok
              count ActionApplied
              c1 <- events v1 (1) id=r5 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 1 legal 27 (frame)
              c3 <- events v1 (1) (frame)
              c3 <- lean state v1 to_act 1 legal - (frame)
              c4 <- events v1 (1) (frame)
              c4 <- lean state v1 to_act 1 legal - (frame)
              reply ok
        "#]],
    );
}

#[test]
fn a_program_is_marked_in_its_seat_for_everyone_and_keeps_the_mark_across_a_reconnect() {
    // Issue 24: a session a program plays for (`hello` with `"bot":true`)
    // is marked `program_bot` in its seat; a built-in bot is not (its
    // `bot` level says what it is), nor is a person.
    check(
        r#"
        room 3 ann@c1
        bot1@c2 join player program
        ann@c1 add_bot greedy
        bot1@c2 detach
        bot1@c3 join player program
        "#,
        expect![[r#"
            room 3 ann@c1
              c1 <- room Waiting [ann* - -] you player#0 id=create
              deadline 3600s
            bot1@c2 join player program
              c1 <- room Waiting [ann* bot1[program] -] you player#0
              c2 <- room Waiting [ann* bot1[program] -] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/3 host ann
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* bot1[program] Greedy bot(greedy)] you player#0 id=r2
              c2 <- room Waiting [ann* bot1[program] Greedy bot(greedy)] you player#1
              reply ok
              listed Waiting 3/3 host ann
            bot1@c2 detach
              release c2
              c1 <- room Waiting [ann* bot1~[program] Greedy bot(greedy)] you player#0
              reply ok
            bot1@c3 join player program
              c1 <- room Waiting [ann* bot1[program] Greedy bot(greedy)] you player#0
              c3 <- room Waiting [ann* bot1[program] Greedy bot(greedy)] you player#1 id=r4
              reply joined player#1
        "#]],
    );
}

#[test]
fn an_older_claim_on_a_seat_never_takes_it_from_a_newer_one() {
    // Issue 44: Ann took her seat again on c3 under the room's newer lease
    // (claim 2) while c2, her connection on a node that lost the room,
    // held claim 1. c2 following the room is refused (the room says so,
    // and lets c2 go); her seat stays with c3. A claim as new as the
    // seat's (c3 itself following again) or newer takes it.
    check(
        r#"
        room 2 bob@c1
        ann@c2 join player claim 1
        ann@c3 join player claim 2
        ann@c2 join player claim 1
        ann@c3 join player claim 2
        ann@c4 join player claim 3
        "#,
        expect![[r#"
            room 2 bob@c1
              c1 <- room Waiting [bob* -] you player#0 id=create
              deadline 3600s
            ann@c2 join player claim 1
              c1 <- room Waiting [bob* ann] you player#0
              c2 <- room Waiting [bob* ann] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host bob
            ann@c3 join player claim 2
              c2 <- room_closed "closed-other-device"
              release c2
              c1 <- room Waiting [bob* ann] you player#0
              c3 <- room Waiting [bob* ann] you player#1 id=r2
              reply joined player#1
            ann@c2 join player claim 1
              reply room_closed: closed-other-device
              release c2
            ann@c3 join player claim 2
              c1 <- room Waiting [bob* ann] you player#0
              c3 <- room Waiting [bob* ann] you player#1 id=r4
              reply joined player#1
            ann@c4 join player claim 3
              c3 <- room_closed "closed-other-device"
              release c3
              c1 <- room Waiting [bob* ann] you player#0
              c4 <- room Waiting [bob* ann] you player#1 id=r5
              reply joined player#1
        "#]],
    );
}
