//! Invitations (issue 25): the room says whether a caller may invite
//! (seated, before the start, a seat free, the invitee not seated); the
//! gateway keeps the invitation.

use expect_test::expect;

use super::check::check;

#[test]
fn a_seated_player_may_invite_before_the_start_while_a_seat_is_free() {
    // Issue 25: the room only says whether; the gateway keeps the
    // invitation. Nothing is sent and nothing changes either way.
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        cy@c3 join spectator
        ann@c1 invite dan
        bob@c2 invite dan
        cy@c3 invite dan
        ann@c1 invite bob
        ann@c1 add_bot greedy
        ann@c1 invite dan
        ann@c1 remove_bot 2
        ann@c1 start joined
        ann@c1 invite dan
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
            cy@c3 join spectator
              c1 <- room Waiting [ann* bob -] watching ["cy"] you player#0
              c2 <- room Waiting [ann* bob -] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob -] watching ["cy"] you spectator id=r2
              reply joined spectator
            ann@c1 invite dan
              reply invitable 2/3
            bob@c2 invite dan
              reply invitable 2/3
            cy@c3 invite dan
              reply not_in_room: room-not-in
            ann@c1 invite bob
              reply invalid_field: invite-already-seated
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["cy"] you player#0 id=r7
              c2 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["cy"] you spectator (frame)
              reply ok
              listed Waiting 3/3 host ann
            ann@c1 invite dan
              reply room_full: room-full(example="\"as\":\"spectator\"")
            ann@c1 remove_bot 2
              c1 <- room Waiting [ann* bob -] watching ["cy"] you player#0 id=r9
              c2 <- room Waiting [ann* bob -] watching ["cy"] you player#1
              c3 <- room Waiting [ann* bob -] watching ["cy"] you spectator (frame)
              reply ok
              listed Waiting 2/3 host ann
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] watching ["cy"] you player#0 id=r10
              c2 <- room Playing [ann* bob] watching ["cy"] you player#1
              c3 <- room Playing [ann* bob] watching ["cy"] you spectator (frame)
              c1 <- state v0 to_act 0 legal 30
              c2 <- state v0 to_act 0 legal -
              c3 <- state v0 to_act 0 legal - (frame)
              reply ok
              listed Playing 2/2 host ann
              deadline none
            ann@c1 invite dan
              reply game_already_started: room-game-started(example="\"as\":\"spectator\"")
        "#]],
    );
}

#[test]
fn an_invitation_says_what_the_room_offers() {
    // Issue 24: the answer carries the room's terms (seats, players,
    // rated, clock), which the challenged player gets with `challenge`.
    check(
        r#"
        room 2 rated clock 300s+5s ann@c1
        ann@c1 invite dan
        "#,
        expect![[r#"
            room 2 rated clock 300s+5s ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 invite dan
              reply invitable 1/2 rated clock 300+5
        "#]],
    );
}
