//! Practice hints (issue 26) on the core: in an unrated game against
//! built-in bots only, the player to move asks; the strong player thinks
//! from that seat's view (a `think` like a bot's, marked as a hint) and the
//! answer goes to the asking connection only; the move made at that
//! position is stored as made with a hint. Refused in a game with another
//! person, out of turn, before the start, and to spectators.

use expect_test::expect;

use super::check::check;

#[test]
fn a_hint_in_a_game_against_bots_goes_to_the_asker_and_marks_the_move_made_after_it() {
    check(
        r#"
        ~ room 2 ann@c1
        ~ ann@c1 add_bot greedy
        ~ cy@c3 join spectator
        ~ ann@c1 start joined
        ann@c1 hint
        ann@c1 hint
        bot answers
        ann@c1 hint
        cy@c3 hint
        ann@c1 act {"take":["white","blue","green"]} v0
        ann@c1 hint
        "#,
        expect![[r#"
            ~ room 2 ann@c1
            ~ ann@c1 add_bot greedy
            ~ cy@c3 join spectator
            ~ ann@c1 start joined
            ann@c1 hint
              think seat 0 v0 strong (a hint for c1)
              reply ok
            ann@c1 hint
              reply ok
            bot answers
              c1 <- hint v0 {"reserve_deck":2} id=r4
            ann@c1 hint
              c1 <- hint v0 {"reserve_deck":2} id=r6
              reply ok
            cy@c3 hint
              reply spectator_cannot_act: room-spectators-cannot-act
            ann@c1 act {"take":["white","blue","green"]} v0
              write action #0 seat 0 {"take":["white","blue","green"]} with a hint -> ok
              count ActionApplied
              c1 <- events v1 (1) by hint id=r8 (frame)
              c1 <- lean state v1 to_act 1 legal - (frame)
              c3 <- events v1 (1) by hint (frame)
              c3 <- lean state v1 to_act 1 legal - (frame)
              reply ok
              think seat 1 v1 greedy
            ann@c1 hint
              reply hint_not_allowed: room-hint-not-your-turn
        "#]],
    );
}

#[test]
fn no_hint_with_another_person_at_the_table_or_before_the_start() {
    check(
        r#"
        ~ room 3 ann@c1
        ~ bob@c2 join player
        ~ ann@c1 add_bot greedy
        ann@c1 hint
        ~ ann@c1 start joined
        ann@c1 hint
        bob@c2 hint
        "#,
        expect![[r#"
            ~ room 3 ann@c1
            ~ bob@c2 join player
            ~ ann@c1 add_bot greedy
            ann@c1 hint
              reply game_not_started: room-game-not-started
            ~ ann@c1 start joined
            ann@c1 hint
              reply hint_not_allowed: room-hint-practice-only
            bob@c2 hint
              reply hint_not_allowed: room-hint-practice-only
        "#]],
    );
}
