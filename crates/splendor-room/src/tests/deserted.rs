//! R12.6: a short-clock game nobody in play is connected to for 2 minutes
//! ends deserted, unrated, ranked where it stands; the room tells whoever
//! is left and closes. Slow clocks, turn-based rooms and games of built-in
//! bots only are never deserted; a resigned seat, a bot and a spectator do
//! not keep a game alive; coming back starts the 2 minutes afresh.

use expect_test::expect;

use super::check::check;

#[test]
fn r12_6_nobody_in_play_connected_for_2_minutes_ends_the_game_deserted() {
    check(
        r#"
        room 2 clock 300s+15s ann@c1
        bob@c2 join player
        dan@c3 join spectator
        ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 119s
        wait 1s
        "#,
        expect![[r#"
            room 2 clock 300s+15s ann@c1
              c1 <- room Waiting [ann* -] you player#0 id=create
              deadline 3600s
            bob@c2 join player
              c1 <- room Waiting [ann* bob] you player#0
              c2 <- room Waiting [ann* bob] you player#1 id=r1
              reply joined player#1
              listed Waiting 2/2 host ann
            dan@c3 join spectator
              c1 <- room Waiting [ann* bob] watching ["dan"] you player#0
              c2 <- room Waiting [ann* bob] watching ["dan"] you player#1
              c3 <- room Waiting [ann* bob] watching ["dan"] you spectator id=r2
              reply joined spectator
            ann@c1 start joined
              write game started ["ann", "bob"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob] watching ["dan"] you player#0 id=r3
              c2 <- room Playing [ann* bob] watching ["dan"] you player#1
              c3 <- room Playing [ann* bob] watching ["dan"] you spectator (frame)
              c1 <- state v0 to_act 0 legal 30 clocks [300000* 300000]
              c2 <- state v0 to_act 0 legal - clocks [300000* 300000]
              c3 <- state v0 to_act 0 legal - clocks [300000* 300000] (frame)
              reply ok
              listed Playing 2/2 host ann
              deadline 300s
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] watching ["dan"] you player#1
              c3 <- room Playing [ann*~ bob] watching ["dan"] you spectator (frame)
              reply ok
            bob@c2 detach
              release c2
              c3 <- room Playing [ann*~ bob~] watching ["dan"] you spectator (frame)
              reply ok
              deadline 120s
            wait 119s
            wait 1s
              @120s timeout
              write deserted, unrated: winners [0, 1] ranks [(0, 1), (1, 1)] end Deserted -> ok
              c3 <- result winners [0, 1]
              closed "closed-deserted" sessions ["ann", "bob", "dan"] farewell ["c3"]: room_closed "closed-deserted"
              deadline none
        "#]],
    );
}

#[test]
fn r12_6_a_player_back_within_the_2_minutes_starts_them_afresh() {
    check(
        r#"
        room 2 clock 300s+15s ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 100s
        bob@c3 join player
        bob@c3 detach
        wait 119s
        wait 1s
        "#,
        expect![[r#"
            room 2 clock 300s+15s ann@c1
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
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
              deadline 120s
            wait 100s
            bob@c3 join player
              c3 <- room Playing [ann*~ bob] you player#1 id=r5
              c3 <- state v0 to_act 0 legal - clocks [200000* 300000]
              reply joined player#1
              deadline 300s
            bob@c3 detach
              release c3
              reply ok
              deadline 220s
            wait 119s
            wait 1s
              @220s timeout
              write deserted, unrated: winners [0, 1] ranks [(0, 1), (1, 1)] end Deserted -> ok
              closed "closed-deserted" sessions ["ann", "bob"] farewell []: room_closed "closed-deserted"
              deadline none
        "#]],
    );
}

#[test]
fn r12_6_a_resigned_seat_a_bot_and_a_spectator_keep_no_game_alive() {
    // Three people and a bot: Cy resigns (two people are still in play,
    // so the stand-in plays his seat, R13.2) and stays; Ann and Bob go.
    check(
        r#"
        room 4 clock 300s+15s ann@c1
        bob@c2 join player
        cy@c3 join player
        ann@c1 add_bot greedy
        dan@c4 join spectator
        ann@c1 start joined
        cy@c3 resign
        ann@c1 detach
        bob@c2 detach
        wait 120s
        "#,
        expect![[r#"
            room 4 clock 300s+15s ann@c1
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
            ann@c1 add_bot greedy
              c1 <- room Waiting [ann* bob cy Greedy bot(greedy)] you player#0 id=r3
              c2 <- room Waiting [ann* bob cy Greedy bot(greedy)] you player#1
              c3 <- room Waiting [ann* bob cy Greedy bot(greedy)] you player#2
              reply ok
              listed Waiting 4/4 host ann
            dan@c4 join spectator
              c1 <- room Waiting [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#0
              c2 <- room Waiting [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#1
              c3 <- room Waiting [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#2
              c4 <- room Waiting [ann* bob cy Greedy bot(greedy)] watching ["dan"] you spectator id=r4
              reply joined spectator
            ann@c1 start joined
              write game started ["ann", "bob", "cy", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#0 id=r5
              c2 <- room Playing [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#1
              c3 <- room Playing [ann* bob cy Greedy bot(greedy)] watching ["dan"] you player#2
              c4 <- room Playing [ann* bob cy Greedy bot(greedy)] watching ["dan"] you spectator (frame)
              c1 <- state v0 to_act 0 legal 30 clocks [300000* 300000 300000 300000b]
              c2 <- state v0 to_act 0 legal - clocks [300000* 300000 300000 300000b]
              c3 <- state v0 to_act 0 legal - clocks [300000* 300000 300000 300000b]
              c4 <- state v0 to_act 0 legal - clocks [300000* 300000 300000 300000b] (frame)
              reply ok
              listed Playing 4/4 host ann
              deadline 300s
            cy@c3 resign
              write action #0 seat 2 "resign" -> ok
              count ActionApplied
              c1 <- events v1 (1) (frame)
              c1 <- lean state v1 to_act 0 legal 30 clocks [300000* 300000 300000 300000b] (frame)
              c2 <- events v1 (1) (frame)
              c2 <- lean state v1 to_act 0 legal - clocks [300000* 300000 300000 300000b] (frame)
              c3 <- events v1 (1) id=r6 (frame)
              c3 <- lean state v1 to_act 0 legal - clocks [300000* 300000 300000 300000b] (frame)
              c4 <- events v1 (1) (frame)
              c4 <- lean state v1 to_act 0 legal - clocks [300000* 300000 300000 300000b] (frame)
              reply ok
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob cy Greedy bot(greedy)] watching ["dan"] you player#1
              c3 <- room Playing [ann*~ bob cy Greedy bot(greedy)] watching ["dan"] you player#2
              c4 <- room Playing [ann*~ bob cy Greedy bot(greedy)] watching ["dan"] you spectator (frame)
              reply ok
            bob@c2 detach
              release c2
              c3 <- room Playing [ann*~ bob~ cy Greedy bot(greedy)] watching ["dan"] you player#2
              c4 <- room Playing [ann*~ bob~ cy Greedy bot(greedy)] watching ["dan"] you spectator (frame)
              reply ok
              deadline 120s
            wait 120s
              @120s timeout
              write deserted, unrated: winners [0, 1, 3] ranks [(0, 1), (1, 1), (3, 1), (2, 4)] end Deserted -> ok
              c3 <- result winners [0, 1, 3]
              c4 <- result winners [0, 1, 3]
              closed "closed-deserted" sessions ["ann", "bob", "cy", "(bot)", "dan"] farewell ["c3", "c4"]: room_closed "closed-deserted"
              deadline none
        "#]],
    );
}

#[test]
fn r12_6_slow_clocks_and_turn_based_rooms_are_never_deserted() {
    check(
        r#"
        room 2 clock 3600s+0s ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 10m
        "#,
        expect![[r#"
            room 2 clock 3600s+0s ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [3600000* 3600000]
              c2 <- state v0 to_act 0 legal - clocks [3600000* 3600000]
              reply ok
              listed Playing 2/2 host ann
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
            wait 10m
        "#]],
    );
    check(
        r#"
        ~ room 2 per_move 24h ann@c1
        bob@c2 join player
        ann@c1 start joined
        ann@c1 detach
        bob@c2 detach
        wait 10m
        "#,
        expect![[r#"
            ~ room 2 per_move 24h ann@c1
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
              c1 <- state v0 to_act 0 legal 30 clocks [86400000* 86400000]
              c2 <- state v0 to_act 0 legal - clocks [86400000* 86400000]
              reply ok
              listed Playing 2/2 host ann
              deadline 86400s
            ann@c1 detach
              release c1
              c2 <- room Playing [ann*~ bob] you player#1
              reply ok
            bob@c2 detach
              release c2
              reply ok
            wait 10m
        "#]],
    );
}

#[test]
fn r12_6_a_game_of_built_in_bots_only_is_never_deserted() {
    // Nobody is seated but bots: after 2 minutes the bots still play.
    check(
        r#"
        room 2 clock 60s+0s watching ann@c1
        ann@c1 add_bot greedy
        ann@c1 add_bot greedy
        ann@c1 start joined
        ann@c1 detach
        wait 121s
        bot answers
        wait 1s
        "#,
        expect![[r#"
            room 2 clock 60s+0s watching ann@c1
              c1 <- room Waiting [- -] watching ["ann"] you spectator id=create
              deadline 3600s
            ann@c1 add_bot greedy
              c1 <- room Waiting [Greedy bot(greedy) -] watching ["ann"] you spectator id=r1
              reply ok
              listed Waiting 1/2 host ann
            ann@c1 add_bot greedy
              c1 <- room Waiting [Greedy bot(greedy) Greedy bot 2(greedy)] watching ["ann"] you spectator id=r2
              reply ok
              listed Waiting 2/2 host ann
            ann@c1 start joined
              write game started ["(bot)", "(bot)"] Options { first_seat: Some(0), rulings: Rulings(2) } -> ok
              count GameStarted
              c1 <- room Playing [Greedy bot(greedy) Greedy bot 2(greedy)] watching ["ann"] you spectator id=r3
              c1 <- state v0 to_act 0 legal - clocks [60000b 60000b] (frame)
              reply ok
              think seat 0 v0 greedy
              listed Playing 2/2 host ann
              deadline none
            ann@c1 detach
              release c1
              reply ok
              listed Playing 2/2 host 
            wait 121s
            bot answers
              write action #0 seat 0 {"take_two":"black"} -> ok
              count ActionApplied
              count BotAction
              think seat 1 v1 greedy
            wait 1s
        "#]],
    );
}

#[test]
fn r12_6_after_a_restart_or_a_takeover_the_2_minutes_start_afresh() {
    // A restored game (a restart, or another node taking the room over):
    // nobody is attached, and the 2 minutes count from the restore, not
    // from whenever its players went on the server before.
    check(
        r#"
        restored 2 ann bob clock 300s+15s
        wait 119s
        wait 1s
        "#,
        expect![[r#"
            restored 2 ann bob clock 300s+15s
              deadline 120s
            wait 119s
            wait 1s
              @120s timeout
              write deserted, unrated: winners [0, 1] ranks [(0, 1), (1, 1)] end Deserted -> ok
              closed "closed-deserted" sessions ["ann", "bob"] farewell []: room_closed "closed-deserted"
              deadline none
        "#]],
    );
}
