//! The chat a room keeps for whoever joins or comes back (issue 23):
//! `chat_history`, without the lines of a muted or removed person.

use expect_test::expect;

use super::check::check;

#[test]
fn whoever_joins_or_comes_back_gets_the_chat_so_far_without_muted_or_removed_lines() {
    // Issue 23: a reload keeps the conversation (`chat_history` after the
    // room and the state); the host's mute and the operators' removal take
    // a person's lines out of it, the spectators' mute theirs.
    check(
        r#"
        room 3 ann@c1
        bob@c2 join player
        eve@c5 join spectator
        ann@c1 chat hello all
        bob@c2 chat hi ann
        eve@c5 chat watching you
        cy@c3 join player
        ann@c1 mute 1
        bob@c7 join player
        ann@c1 mute spectators
        cy@c3 chat hey
        dan@c4 join spectator
        cy@c3 removed spamming
        dan@c9 join spectator
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
            ann@c1 chat hello all
              c1 <- chat L1 ann#0: hello all id=r3
              c2 <- chat L1 ann#0: hello all (frame)
              c5 <- chat L1 ann#0: hello all (frame)
              reply ok
            bob@c2 chat hi ann
              c1 <- chat L2 bob#1: hi ann (frame)
              c2 <- chat L2 bob#1: hi ann id=r4
              c5 <- chat L2 bob#1: hi ann (frame)
              reply ok
            eve@c5 chat watching you
              c1 <- chat L3 eve: watching you (frame)
              c2 <- chat L3 eve: watching you (frame)
              c5 <- chat L3 eve: watching you id=r5
              reply ok
            cy@c3 join player
              c1 <- room Waiting [ann* bob cy] watching ["eve"] you player#0
              c2 <- room Waiting [ann* bob cy] watching ["eve"] you player#1
              c3 <- room Waiting [ann* bob cy] watching ["eve"] you player#2 id=r6
              c5 <- room Waiting [ann* bob cy] watching ["eve"] you spectator (frame)
              c3 <- chat_history [ann#0: hello all | bob#1: hi ann | eve: watching you]
              reply joined player#2
              listed Waiting 3/3 host ann
            ann@c1 mute 1
              c1 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#0 id=r7
              c2 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#1
              c3 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#2
              c5 <- room Waiting [ann* bob muted cy] watching ["eve"] you spectator (frame)
              reply ok
            bob@c7 join player
              c2 <- room_closed "closed-other-device"
              release c2
              c1 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#0
              c7 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#1 id=r8
              c3 <- room Waiting [ann* bob muted cy] watching ["eve"] you player#2
              c5 <- room Waiting [ann* bob muted cy] watching ["eve"] you spectator (frame)
              c7 <- chat_history [ann#0: hello all | eve: watching you]
              reply joined player#1
            ann@c1 mute spectators
              c1 <- room Waiting [ann* bob muted cy] watching ["eve"] (muted) you player#0 id=r9
              c7 <- room Waiting [ann* bob muted cy] watching ["eve"] (muted) you player#1
              c3 <- room Waiting [ann* bob muted cy] watching ["eve"] (muted) you player#2
              c5 <- room Waiting [ann* bob muted cy] watching ["eve"] (muted) you spectator (frame)
              reply ok
            cy@c3 chat hey
              c1 <- chat L4 cy#2: hey (frame)
              c7 <- chat L4 cy#2: hey (frame)
              c3 <- chat L4 cy#2: hey id=r10
              c5 <- chat L4 cy#2: hey (frame)
              reply ok
            dan@c4 join spectator
              c1 <- room Waiting [ann* bob muted cy] watching ["eve", "dan"] (muted) you player#0
              c7 <- room Waiting [ann* bob muted cy] watching ["eve", "dan"] (muted) you player#1
              c3 <- room Waiting [ann* bob muted cy] watching ["eve", "dan"] (muted) you player#2
              c5 <- room Waiting [ann* bob muted cy] watching ["eve", "dan"] (muted) you spectator (frame)
              c4 <- room Waiting [ann* bob muted cy] watching ["eve", "dan"] (muted) you spectator id=r11
              c4 <- chat_history [ann#0: hello all | cy#2: hey]
              reply joined spectator
            cy@c3 removed spamming
              c3 <- room_closed "closed-removed(reason=\"spamming\")"
              release c3
              c1 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you player#0
              c7 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you player#1
              c5 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you spectator (frame)
              c4 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you spectator (frame)
              reply ok
              listed Waiting 2/3 host ann
            dan@c9 join spectator
              c4 <- room_closed "closed-other-device"
              release c4
              c1 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you player#0
              c7 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you player#1
              c5 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you spectator (frame)
              c9 <- room Waiting [ann* bob muted -] watching ["eve", "dan"] (muted) you spectator id=r13
              c9 <- chat_history [ann#0: hello all]
              reply joined spectator
        "#]],
    );
}

#[test]
fn a_blocked_sessions_chat_never_reaches_the_one_who_blocked_it() {
    // Issue 22: ann blocked bob (her gateway says so before she joins and
    // when it changes): his lines reach everyone but her, live and in the
    // history she gets on her return; hers still reach him.
    check(
        r#"
        room 3 cy@c3
        bob@c2 join player
        bob@c2 chat before ann came
        ann@c1 blocks bob
        ann@c1 join player
        bob@c2 chat hello
        ann@c1 chat hi
        ann@c1 detach
        ann@c4 join player
        ann@c4 blocks
        bob@c2 chat again
        "#,
        expect![[r#"
            room 3 cy@c3
              c3 <- room Waiting [cy* - -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c3 <- room Waiting [cy* bob -] you player#0
              c2 <- room Waiting [cy* bob -] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/3 host cy
            bob@c2 chat before ann came
              c3 <- chat L1 bob#1: before ann came (frame)
              c2 <- chat L1 bob#1: before ann came id=r2
              reply ok
            ann@c1 blocks bob
              reply ok
            ann@c1 join player
              c3 <- room Waiting [cy* bob ann] you player#0
              c2 <- room Waiting [cy* bob ann] you player#1
              c1 <- room Waiting [cy* bob ann] you player#2 id=r4
              reply joined player#2
              listed Waiting 3/3 host cy
            bob@c2 chat hello
              c3 <- chat L2 bob#1: hello (frame)
              c2 <- chat L2 bob#1: hello id=r5
              reply ok
            ann@c1 chat hi
              c3 <- chat L3 ann#2: hi (frame)
              c2 <- chat L3 ann#2: hi (frame)
              c1 <- chat L3 ann#2: hi id=r6
              reply ok
            ann@c1 detach
              release c1
              c3 <- room Waiting [cy* bob ann~] you player#0
              c2 <- room Waiting [cy* bob ann~] you player#1
              reply ok
            ann@c4 join player
              c3 <- room Waiting [cy* bob ann] you player#0
              c2 <- room Waiting [cy* bob ann] you player#1
              c4 <- room Waiting [cy* bob ann] you player#2 id=r8
              c4 <- chat_history [ann#2: hi]
              reply joined player#2
            ann@c4 blocks
              reply ok
            bob@c2 chat again
              c3 <- chat L4 bob#1: again (frame)
              c2 <- chat L4 bob#1: again id=r10
              c4 <- chat L4 bob#1: again (frame)
              reply ok
        "#]],
    );
}
