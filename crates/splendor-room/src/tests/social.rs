//! The table around the game (issue 11): chat, the host's mute, the
//! rematch, and a finished room giving way to the next.

use expect_test::expect;

use super::check::check;

#[test]
fn chat_reaches_everyone_in_the_room_and_bad_chat_changes_nothing() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ eve@c3 join spectator
        bob@c2 chat   hello there  
        eve@c3 chat hi from the stands
        ann@c1 chat
        ann@c1 chat a	tab
        ann@c1 chat ⠀⠀⠀
        ann@c1 chat z̵̡̢̧̨algo
        ann@c1 chat gg ❤️ 👨‍👩‍👧
        ann@c1 chat xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
        zed@c9 chat I am not here
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ eve@c3 join spectator
            bob@c2 chat   hello there
              c1 <- chat L1 bob#1: hello there (frame)
              c2 <- chat L1 bob#1: hello there id=r3
              c3 <- chat L1 bob#1: hello there (frame)
              reply ok
            eve@c3 chat hi from the stands
              c1 <- chat L2 eve: hi from the stands (frame)
              c2 <- chat L2 eve: hi from the stands (frame)
              c3 <- chat L2 eve: hi from the stands id=r4
              reply ok
            ann@c1 chat
              reply invalid_chat: chat-empty
            ann@c1 chat a	tab
              reply invalid_chat: chat-control
            ann@c1 chat ⠀⠀⠀
              reply invalid_chat: chat-invisible(code="2800")
            ann@c1 chat z̵̡̢̧̨algo
              reply invalid_chat: chat-stacked-marks(max=3)
            ann@c1 chat gg ❤️ 👨‍👩‍👧
              c1 <- chat L3 ann#0: gg ❤️ 👨‍👩‍👧 id=r9
              c2 <- chat L3 ann#0: gg ❤️ 👨‍👩‍👧 (frame)
              c3 <- chat L3 ann#0: gg ❤️ 👨‍👩‍👧 (frame)
              reply ok
            ann@c1 chat xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
              reply invalid_chat: chat-too-long(max=200, count=201)
            zed@c9 chat I am not here
              reply not_in_room: room-not-in
        "#]],
    );
}

#[test]
fn the_host_mutes_a_seat_and_a_person_is_held_to_five_messages_in_ten_seconds() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        bob@c2 mute 0
        ann@c1 mute 1
        bob@c2 chat can you hear me
        ann@c1 mute 3
        ann@c1 mute 1 off
        bob@c2 chat 1
        bob@c2 chat 2
        bob@c2 chat 3
        bob@c2 chat 4
        bob@c2 chat 5
        bob@c2 chat 6
        wait 10s
        bob@c2 chat 7
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            bob@c2 mute 0
              reply not_host: room-not-host
            ann@c1 mute 1
              c1 <- room Waiting [ann* bob muted] you player#0 id=r3
              c2 <- room Waiting [ann* bob muted] you player#1
              reply ok
            bob@c2 chat can you hear me
              reply chat_muted: chat-muted
            ann@c1 mute 3
              reply invalid_seat: room-no-person-in-seat(seat=3)
            ann@c1 mute 1 off
              c1 <- room Waiting [ann* bob] you player#0 id=r6
              c2 <- room Waiting [ann* bob] you player#1
              reply ok
            bob@c2 chat 1
              c1 <- chat L1 bob#1: 1 (frame)
              c2 <- chat L1 bob#1: 1 id=r7
              reply ok
            bob@c2 chat 2
              c1 <- chat L2 bob#1: 2 (frame)
              c2 <- chat L2 bob#1: 2 id=r8
              reply ok
            bob@c2 chat 3
              c1 <- chat L3 bob#1: 3 (frame)
              c2 <- chat L3 bob#1: 3 id=r9
              reply ok
            bob@c2 chat 4
              c1 <- chat L4 bob#1: 4 (frame)
              c2 <- chat L4 bob#1: 4 id=r10
              reply ok
            bob@c2 chat 5
              c1 <- chat L5 bob#1: 5 (frame)
              c2 <- chat L5 bob#1: 5 id=r11
              reply ok
            bob@c2 chat 6
              reply chat_too_fast: chat-too-fast(burst=5, seconds=10)
            wait 10s
            bob@c2 chat 7
              c1 <- chat L6 bob#1: 7 (frame)
              c2 <- chat L6 bob#1: 7 id=r13
              reply ok
              deadline 3610s
        "#]],
    );
}

#[test]
fn a_rematch_is_offered_accepted_and_made_with_the_same_seats() {
    check(
        r#"
        ~ room 3 ann@c1
        ~ bob@c2 join player
        ann@c1 add_bot greedy
        eve@c3 join spectator
        ann@c1 rematch
        ann@c1 start joined
        ann@c1 rematch
        bots end
        eve@c3 rematch
        ann@c1 rematch
        ann@c1 rematch
        bob@c2 rematch
        bob@c2 rematch_ready none
        bob@c2 rematch
        ann@c1 rematch
        ann@c1 rematch_ready KHPQZ
        bob@c2 rematch
        bob@c2 leave_finished
        "#,
        expect![[r#"
            ~ room 3 ann@c1
            ~ bob@c2 join player
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* bob Greedy bot(greedy)] you player#0 id=r2
              c2 <- room Waiting [ann* bob Greedy bot(greedy)] you player#1
              reply ok
              listed Waiting 3/3 host ann
            eve@c3 join spectator
              c1 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you player#0
              c2 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you player#1
              c3 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you spectator id=r3
              reply joined spectator
            ann@c1 rematch
              reply rematch_unavailable: rematch-not-over
            ann@c1 start joined
              write game started ["ann", "bob", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob Greedy bot(greedy)] watching ["eve"] you player#0 id=r5
              c2 <- room Playing [ann* bob Greedy bot(greedy)] watching ["eve"] you player#1
              c3 <- room Playing [ann* bob Greedy bot(greedy)] watching ["eve"] you spectator (frame)
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              c3 <- state v0 to_act 0 legal - (frame)
              reply ok
              listed Playing 3/3 host ann
              deadline none
            ann@c1 rematch
              reply rematch_unavailable: rematch-not-over
            bots end
              after 110 steps: RoomProbe { status: Finished, version: Some(82), seated: 3, connected_players: 2, spectators: 1 }
            eve@c3 rematch
              reply rematch_unavailable: rematch-spectator
            ann@c1 rematch
              c1 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you player#0 id=r62
              c2 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you player#1
              c3 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you spectator (frame)
              reply ok
            ann@c1 rematch
              c1 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you player#0 id=r63
              c2 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you player#1
              c3 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 2] you spectator (frame)
              reply ok
            bob@c2 rematch
              reply rematch with ann Greedy bot(greedy)
            bob@c2 rematch_ready none
              c1 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] you player#0
              c2 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] you player#1
              c3 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] you spectator (frame)
              reply ok
            bob@c2 rematch
              c1 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [1, 2] you player#0
              c2 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [1, 2] you player#1 id=r66
              c3 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [1, 2] you spectator (frame)
              reply ok
            ann@c1 rematch
              reply rematch with bob Greedy bot(greedy)
            ann@c1 rematch_ready KHPQZ
              c1 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 1, 2] in KHPQZ you player#0
              c2 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 1, 2] in KHPQZ you player#1
              c3 <- room Finished [ann* bob Greedy bot(greedy)] watching ["eve"] rematch [0, 1, 2] in KHPQZ you spectator (frame)
              reply ok
            bob@c2 rematch
              reply rematch_unavailable: rematch-agreed(code="KHPQZ")
            bob@c2 leave_finished
              c2 <- left id=r70
              release c2
              c1 <- room Finished [ann* bob~ Greedy bot(greedy)] watching ["eve"] rematch [0, 1, 2] in KHPQZ you player#0
              c3 <- room Finished [ann* bob~ Greedy bot(greedy)] watching ["eve"] rematch [0, 1, 2] in KHPQZ you spectator (frame)
              reply ok
        "#]],
    );
}

#[test]
fn only_a_finished_room_gives_way_to_the_next() {
    check(
        r#"
        room 2 ann@c1
        ann@c1 leave_finished
        bob@c2 join player
        ann@c1 start joined
        bob@c2 leave_finished
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 leave_finished
              reply already_in_room: room-already-in(code="SPNDR")
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r2
              reply joined player#1
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] you player#0 id=r3
              c2 <- room Playing [ann* bob] you player#1
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              reply ok
              listed Playing 2/2 host ann
              deadline none
            bob@c2 leave_finished
              reply already_in_room: room-already-in(code="SPNDR")
        "#]],
    );
}

#[test]
fn a_host_who_watches_stays_the_host_when_people_join() {
    check(
        r#"
        room 2 watching ann@c1
        ann@c1 add_bot greedy
        bob@c2 join player
        ann@c1 start joined
        "#,
        expect![[r#"
            room 2 watching ann@c1
              c1 <- room Waiting [- -] watching ["ann"] you spectator id=create
              deadline 3600s
            ann@c1 add_bot greedy
              c1 <- room Waiting [Greedy bot(greedy) -] watching ["ann"] you spectator id=r1
              reply ok
              listed Waiting 1/2 host ann
            bob@c2 join player
              c2 <- room Waiting [Greedy bot(greedy) bob] watching ["ann"] you player#1 id=r2
              c1 <- room Waiting [Greedy bot(greedy) bob] watching ["ann"] you spectator (frame)
              reply joined player#1
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["(bot)", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c2 <- room Playing [Greedy bot(greedy) bob] watching ["ann"] you player#1
              c1 <- room Playing [Greedy bot(greedy) bob] watching ["ann"] you spectator id=r3
              c2 <- state v0 to_act 0 legal -
              c1 <- state v0 to_act 0 legal - (frame)
              reply ok
              think seat 0 v0 greedy
              listed Playing 2/2 host ann
              deadline none
        "#]],
    );
}

#[test]
fn a_player_who_leaves_the_finished_table_withdraws_the_rematch() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 start joined
        play end
        ann@c1 rematch
        bob@c2 leave_finished
        ann@c1 rematch
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 start joined
            play end
              played 73: RoomProbe { status: Finished, version: Some(73), seated: 2, connected_players: 2, spectators: 0 }
            ann@c1 rematch
              c1 <- room Finished [ann* bob] rematch [0] you player#0 id=r76
              c2 <- room Finished [ann* bob] rematch [0] you player#1
              reply ok
            bob@c2 leave_finished
              c2 <- left id=r77
              release c2
              c1 <- room Finished [ann* bob~] you player#0
              reply ok
            ann@c1 rematch
              reply rematch_unavailable: rematch-player-left(name="bob")
        "#]],
    );
}

/// The host mutes every spectator's chat (and lets it again); the
/// spectators together write at most 10 messages in 10 s, so a crowd of
/// them, each within its own 5, cannot flood the players, and the players'
/// lines never wait behind theirs (issue 45: six spectators silenced the
/// players); a player is held to 5 of their own.
#[test]
fn spectators_share_ten_lines_in_ten_seconds_and_never_hold_the_players() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ bob@c2 join player
        ~ s1@c11 join spectator
        ~ s2@c12 join spectator
        ~ s3@c13 join spectator
        ~ s4@c14 join spectator
        bob@c2 mute spectators
        ann@c1 mute spectators
        s1@c11 chat hello
        ann@c1 chat players still talk
        ann@c1 mute spectators off
        ~ s1@c11 chat a
        ~ s1@c11 chat b
        ~ s1@c11 chat c
        ~ s1@c11 chat d
        ~ s2@c12 chat a
        ~ s2@c12 chat b
        ~ s2@c12 chat c
        ~ s2@c12 chat d
        ~ s2@c12 chat e
        s3@c13 chat a
        s3@c13 chat b
        s4@c14 chat a
        ann@c1 chat the players are never held
        ~ bob@c2 chat a
        ~ bob@c2 chat b
        ~ bob@c2 chat c
        ~ bob@c2 chat d
        bob@c2 chat e
        bob@c2 chat f
        wait 10s
        s1@c11 chat back again
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ bob@c2 join player
            ~ s1@c11 join spectator
            ~ s2@c12 join spectator
            ~ s3@c13 join spectator
            ~ s4@c14 join spectator
            bob@c2 mute spectators
              reply not_host: room-not-host
            ann@c1 mute spectators
              c1 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you player#0 id=r7
              c2 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you player#1
              c11 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you spectator (frame)
              c12 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you spectator (frame)
              c13 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you spectator (frame)
              c14 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] (muted) you spectator (frame)
              reply ok
            s1@c11 chat hello
              reply chat_muted: chat-spectators-muted
            ann@c1 chat players still talk
              c1 <- chat L1 ann#0: players still talk id=r9
              c2 <- chat L1 ann#0: players still talk (frame)
              c11 <- chat L1 ann#0: players still talk (frame)
              c12 <- chat L1 ann#0: players still talk (frame)
              c13 <- chat L1 ann#0: players still talk (frame)
              c14 <- chat L1 ann#0: players still talk (frame)
              reply ok
            ann@c1 mute spectators off
              c1 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you player#0 id=r10
              c2 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you player#1
              c11 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you spectator (frame)
              c12 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you spectator (frame)
              c13 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you spectator (frame)
              c14 <- room Waiting [ann* bob] watching ["s1", "s2", "s3", "s4"] you spectator (frame)
              reply ok
            ~ s1@c11 chat a
            ~ s1@c11 chat b
            ~ s1@c11 chat c
            ~ s1@c11 chat d
            ~ s2@c12 chat a
            ~ s2@c12 chat b
            ~ s2@c12 chat c
            ~ s2@c12 chat d
            ~ s2@c12 chat e
            s3@c13 chat a
              c1 <- chat L11 s3: a (frame)
              c2 <- chat L11 s3: a (frame)
              c11 <- chat L11 s3: a (frame)
              c12 <- chat L11 s3: a (frame)
              c13 <- chat L11 s3: a id=r20
              c14 <- chat L11 s3: a (frame)
              reply ok
            s3@c13 chat b
              reply chat_too_fast: chat-spectators-too-fast(burst=10, seconds=10)
            s4@c14 chat a
              reply chat_too_fast: chat-spectators-too-fast(burst=10, seconds=10)
            ann@c1 chat the players are never held
              c1 <- chat L12 ann#0: the players are never held id=r23
              c2 <- chat L12 ann#0: the players are never held (frame)
              c11 <- chat L12 ann#0: the players are never held (frame)
              c12 <- chat L12 ann#0: the players are never held (frame)
              c13 <- chat L12 ann#0: the players are never held (frame)
              c14 <- chat L12 ann#0: the players are never held (frame)
              reply ok
            ~ bob@c2 chat a
            ~ bob@c2 chat b
            ~ bob@c2 chat c
            ~ bob@c2 chat d
            bob@c2 chat e
              c1 <- chat L17 bob#1: e (frame)
              c2 <- chat L17 bob#1: e id=r28
              c11 <- chat L17 bob#1: e (frame)
              c12 <- chat L17 bob#1: e (frame)
              c13 <- chat L17 bob#1: e (frame)
              c14 <- chat L17 bob#1: e (frame)
              reply ok
            bob@c2 chat f
              reply chat_too_fast: chat-too-fast(burst=5, seconds=10)
            wait 10s
            s1@c11 chat back again
              c1 <- chat L18 s1: back again (frame)
              c2 <- chat L18 s1: back again (frame)
              c11 <- chat L18 s1: back again id=r30
              c12 <- chat L18 s1: back again (frame)
              c13 <- chat L18 s1: back again (frame)
              c14 <- chat L18 s1: back again (frame)
              reply ok
              deadline 3610s
        "#]],
    );
}
