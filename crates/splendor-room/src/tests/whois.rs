//! Whom a `report` or a `block` names (issue 22): a seat's person or a
//! kept chat line's author, asked by someone in the room; nothing changes
//! and nothing is sent.

use expect_test::expect;

use super::check::check;

#[test]
fn a_seat_or_a_kept_line_names_its_person_to_someone_in_the_room() {
    // Issue 22: seats of people and lines of anyone (spectators too) name
    // a session; a bot's seat, an empty seat, a line never sent or one
    // dropped with a muted person's lines name nobody; a stranger may not
    // ask.
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        eve@c5 join spectator
        ann@c1 add_bot greedy
        eve@c5 chat you are all bad
        bob@c2 chat hi
        ann@c1 whois seat 1
        eve@c5 whois seat 0
        bob@c2 whois line 1
        ann@c1 whois line 2
        ann@c1 whois seat 2
        ann@c1 whois line 3
        ann@c1 mute spectators
        ann@c1 whois line 1
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
            eve@c5 join spectator
              c1 <- room Waiting [ann* bob -] watching ["eve"] you player#0
              c2 <- room Waiting [ann* bob -] watching ["eve"] you player#1
              c5 <- room Waiting [ann* bob -] watching ["eve"] you spectator id=r2
              reply joined spectator
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you player#0 id=r3
              c2 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you player#1
              c5 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] you spectator (frame)
              reply ok
              listed Waiting 3/3 host ann
            eve@c5 chat you are all bad
              c1 <- chat L1 eve: you are all bad (frame)
              c2 <- chat L1 eve: you are all bad (frame)
              c5 <- chat L1 eve: you are all bad id=r4
              reply ok
            bob@c2 chat hi
              c1 <- chat L2 bob#1: hi (frame)
              c2 <- chat L2 bob#1: hi id=r5
              c5 <- chat L2 bob#1: hi (frame)
              reply ok
            ann@c1 whois seat 1
              reply person bob#1 line - chat 2 game no
            eve@c5 whois seat 0
              reply person ann#0 line - chat 2 game no
            bob@c2 whois line 1
              reply person eve line L1 "you are all bad" chat 2 game no
            ann@c1 whois line 2
              reply person bob#1 line L2 "hi" chat 2 game no
            ann@c1 whois seat 2
              reply invalid_seat: room-no-person-in-seat(seat=2)
            ann@c1 whois line 3
              reply invalid_field: room-no-such-line(line=9223372036854775807)
            ann@c1 mute spectators
              c1 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] (muted) you player#0 id=r12
              c2 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] (muted) you player#1
              c5 <- room Waiting [ann* bob Greedy bot(greedy)] watching ["eve"] (muted) you spectator (frame)
              reply ok
            ann@c1 whois line 1
              reply invalid_field: room-no-such-line(line=4837959429258)
        "#]],
    );
}

#[test]
fn a_stranger_cannot_ask_who_sits_in_a_room() {
    check(
        r#"
        room 2 ann@c1
        ann@c1 chat hello
        dan@c4 whois seat 0
        dan@c4 whois line 1
        "#,
        expect![[r#"
            room 2 ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            ann@c1 chat hello
              c1 <- chat L1 ann#0: hello id=r1
              reply ok
            dan@c4 whois seat 0
              reply not_in_room: room-not-in
            dan@c4 whois line 1
              reply not_in_room: room-not-in
        "#]],
    );
}
