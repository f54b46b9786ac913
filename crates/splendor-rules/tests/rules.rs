//! One or more tests per rule of RULES.md, positive and negative. Every
//! action goes through `ok`/`err` (tests/common), which also check R11.3 and
//! that `legal_actions` agrees with `apply`.

mod common;

use common::{Position, assert_error, colors, err, gems, ok, tokens};
use splendor_rules::Color::{Black, Blue, Green, Red, White};
use splendor_rules::{
    Action, CardId, ColorSet, Event, Level, NobleId, Phase, ReservedView, Seat, Viewer,
};

fn buy(card: u8) -> Action {
    Action::Buy {
        card: CardId(card),
        gold: None,
    }
}

fn buy_with_gold(card: u8, gold: [u8; 5]) -> Action {
    Action::Buy {
        card: CardId(card),
        gold: Some(gold),
    }
}

fn take3() -> Action {
    Action::TakeDifferent(colors(&[White, Blue, Red]))
}

// ---- R4: three different gems ----

#[test]
fn r4_1_take_three_different_colours() {
    let mut game = Position::new(2).build();
    let events = ok(&mut game, 0, take3());
    assert_eq!(
        events,
        [Event::TookTokens {
            seat: 0,
            tokens: tokens(gems(1, 1, 0, 1, 0), 0)
        }]
    );
    assert_eq!(game.supply(), tokens(gems(3, 3, 4, 3, 4), 5));
    assert_eq!(game.tokens(0), Some(tokens(gems(1, 1, 0, 1, 0), 0)));
    assert_eq!(game.phase(), Phase::Main { seat: 1 });
}

#[test]
fn r4_1_take_different_refuses_empty_four_and_unknown_colours() {
    let mut game = Position::new(2).build();
    for (set, text) in [
        (
            0,
            "take different: name one to three different gem colours, not 0 (R4.1)",
        ),
        (
            0b1111,
            "take different: name one to three different gem colours, not 4 (R4.1)",
        ),
        (
            0b10_0011,
            "take different: only the five gem colours can be taken (R4.1)",
        ),
    ] {
        let e = err(&mut game, 0, Action::TakeDifferent(ColorSet(set)));
        assert_error(&e, "invalid_colors", text);
    }
}

#[test]
fn r4_1_take_different_refuses_a_colour_with_no_tokens() {
    let mut game = Position::new(2).supply_gems(gems(4, 4, 4, 0, 4), 0).build();
    let e = err(&mut game, 0, take3());
    assert_error(
        &e,
        "supply_empty",
        "take different: no red tokens left (R4.1)",
    );
    ok(
        &mut game,
        0,
        Action::TakeDifferent(colors(&[White, Blue, Black])),
    );
}

#[test]
fn r4_2_fewer_than_three_only_when_fewer_colours_have_tokens() {
    // Three colours have tokens: exactly three must be taken.
    let mut game = Position::new(4).supply_gems(gems(3, 3, 1, 0, 0), 0).build();
    let e = err(&mut game, 0, Action::TakeDifferent(colors(&[White, Blue])));
    assert_error(
        &e,
        "take_three_required",
        "take different: 3 colours have tokens, so take 3 different, not 2 (R4.2)",
    );
    ok(
        &mut game,
        0,
        Action::TakeDifferent(colors(&[White, Blue, Green])),
    );

    // Two colours have tokens: two, or one, may be taken.
    let position = || Position::new(4).supply_gems(gems(2, 0, 0, 3, 0), 0);
    let mut game = position().build();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let takes: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::TakeDifferent(_)))
        .collect();
    assert_eq!(
        takes,
        [
            Action::TakeDifferent(colors(&[White, Red])),
            Action::TakeDifferent(colors(&[White])),
            Action::TakeDifferent(colors(&[Red])),
        ]
    );
    ok(&mut game, 0, Action::TakeDifferent(colors(&[White, Red])));
    let mut game = position().build();
    ok(&mut game, 0, Action::TakeDifferent(colors(&[White])));
}

#[test]
fn r4_3_taking_tokens_that_must_be_returned_is_legal() {
    let mut game = Position::new(2).give(0, gems(3, 3, 2, 2, 0), 0).build();
    ok(&mut game, 0, take3());
    assert_eq!(game.phase(), Phase::ReturnTokens { seat: 0, count: 3 });
}

// ---- R5: two of a colour ----

#[test]
fn r5_1_take_two_needs_four_in_supply() {
    let mut game = Position::new(2).build();
    let events = ok(&mut game, 0, Action::TakeTwo(Blue));
    assert_eq!(
        events,
        [Event::TookTokens {
            seat: 0,
            tokens: tokens(gems(0, 2, 0, 0, 0), 0)
        }]
    );
    assert_eq!(game.supply().gems, [4, 2, 4, 4, 4]);
}

#[test]
fn r5_1_take_two_refused_with_three_in_supply() {
    let mut game = Position::new(2).supply_gems(gems(4, 3, 4, 4, 4), 0).build();
    let e = err(&mut game, 0, Action::TakeTwo(Blue));
    assert_error(
        &e,
        "take_two_supply",
        "take two: only 3 blue tokens left, 4 needed (R5.1)",
    );
}

// ---- R6: reserving ----

#[test]
fn r6_1_reserve_face_up_takes_a_gold_and_refills_the_slot() {
    let mut game = Position::new(2).build();
    let events = ok(&mut game, 0, Action::ReserveFaceUp(CardId(1)));
    assert_eq!(
        events,
        [
            Event::Reserved {
                seat: 0,
                level: Level(1),
                card: Some(CardId(1)),
                from_deck: false,
                gold: true
            },
            Event::Dealt {
                level: Level(1),
                slot: 1,
                card: CardId(4)
            },
        ]
    );
    assert_eq!(game.supply().gold, 4);
    assert_eq!(game.tokens(0).unwrap().gold, 1);
    let view = game.view(Viewer::Seat(1));
    assert_eq!(
        view.seats[0].reserved,
        [ReservedView::Card {
            card: CardId(1),
            from_deck: false
        }]
    );
    assert_eq!(view.face_up[0][1], Some(CardId(4)));
}

#[test]
fn r6_1_blind_reserve_takes_the_top_card_seen_only_by_its_owner() {
    let mut game = Position::new(2).build();
    let events = ok(&mut game, 0, Action::ReserveFromDeck(Level(2)));
    // The level 2 deck's top card is 44 (40..=43 are face up).
    let full = Event::Reserved {
        seat: 0,
        level: Level(2),
        card: Some(CardId(44)),
        from_deck: true,
        gold: true,
    };
    let redacted = Event::Reserved {
        seat: 0,
        level: Level(2),
        card: None,
        from_deck: true,
        gold: true,
    };
    assert_eq!(events, [full]);
    assert_eq!(full.redact_for(Viewer::Seat(0)), full);
    assert_eq!(full.redact_for(Viewer::Seat(1)), redacted);
    assert_eq!(full.redact_for(Viewer::Spectator), redacted);
    assert_eq!(game.view(Viewer::Spectator).deck_sizes, [36, 25, 16]);
}

#[test]
fn r6_1_blind_reserve_from_an_empty_deck_is_refused() {
    let mut game = Position::new(2).empty_deck(3).build();
    let e = err(&mut game, 0, Action::ReserveFromDeck(Level(3)));
    assert_error(
        &e,
        "deck_empty",
        "reserve: the level 3 deck is empty (R6.1)",
    );
    for level in [0, 4] {
        let e = err(&mut game, 0, Action::ReserveFromDeck(Level(level)));
        assert_eq!(e.code, "unknown_level");
    }
    // The face-up level 3 cards can still be reserved.
    ok(&mut game, 0, Action::ReserveFaceUp(CardId(70)));
}

#[test]
fn r6_1_reserve_refuses_every_card_not_face_up_alike() {
    // Card 75 is in seat 1's hand (blind), 77 in seat 0's own hand, 5 was
    // bought by seat 1, and 80 and 44 are still in decks. The answer must
    // not tell them apart (R6.4).
    let mut game = Position::new(2)
        .reserved(1, 75, true)
        .reserved(0, 77, false)
        .purchased(1, &[5])
        .build();
    for card in [75, 77, 5, 80, 44] {
        let e = err(&mut game, 0, Action::ReserveFaceUp(CardId(card)));
        assert_error(
            &e,
            "card_not_available",
            &format!("reserve: card {card} is not face-up on the table (R6.1)"),
        );
    }
    let e = err(&mut game, 0, Action::ReserveFaceUp(CardId(90)));
    assert_error(
        &e,
        "unknown_card",
        "there is no card 90: card ids are 0 to 89 (R1.2)",
    );
}

#[test]
fn r6_2_a_fourth_reserve_is_refused() {
    let mut game = Position::new(2)
        .reserved(0, 70, true)
        .reserved(0, 71, false)
        .reserved(0, 72, true)
        .build();
    for action in [
        Action::ReserveFaceUp(CardId(0)),
        Action::ReserveFromDeck(Level(1)),
    ] {
        let e = err(&mut game, 0, action);
        assert_error(
            &e,
            "reserve_limit",
            "reserve: you already hold 3 reserved cards, the most allowed (R6.2)",
        );
    }
}

#[test]
fn r6_3_reserve_without_gold_when_none_is_left() {
    let mut game = Position::new(2).give(1, gems(0, 0, 0, 0, 0), 5).build();
    let events = ok(&mut game, 0, Action::ReserveFaceUp(CardId(2)));
    assert!(matches!(events[0], Event::Reserved { gold: false, .. }));
    assert_eq!(game.tokens(0), Some(tokens(gems(0, 0, 0, 0, 0), 0)));
    assert_eq!(game.supply().gold, 0);
}

/// R6.4: a seat's view differs from a spectator's only by the cards it
/// reserved blind; `has_blind_reserve` says when (the server then builds
/// a seat's state from the spectator's, issue 20).
#[test]
fn r6_4_only_a_blind_reserve_makes_a_seats_view_differ_from_a_spectators() {
    let mut game = Position::new(3).build();
    let alike = |game: &splendor_rules::Game, seat: Seat| {
        game.view(Viewer::Seat(seat)) == game.view(Viewer::Spectator)
    };
    for seat in 0..3 {
        assert!(!game.has_blind_reserve(seat));
        assert!(alike(&game, seat));
    }
    // A face-up reserve is public: no difference.
    ok(&mut game, 0, Action::ReserveFaceUp(CardId(3)));
    assert!(!game.has_blind_reserve(0));
    assert!(alike(&game, 0));
    // A blind one: its owner's view differs, no one else's.
    ok(&mut game, 1, Action::ReserveFromDeck(Level(2)));
    assert!(game.has_blind_reserve(1));
    assert!(!alike(&game, 1));
    // ... and only in its own entry, which `seat_view` gives alone.
    let own = game.view(Viewer::Seat(1));
    let public = game.view(Viewer::Spectator);
    assert_ne!(own.seats[1], public.seats[1]);
    assert_eq!(
        game.seat_view(1, Viewer::Seat(1)).as_ref(),
        Some(&own.seats[1])
    );
    assert_eq!(
        game.seat_view(1, Viewer::Seat(0)).as_ref(),
        Some(&public.seats[1])
    );
    for seat in [0, 2] {
        assert_eq!(own.seats[seat], public.seats[seat]);
    }
    for seat in [0, 2] {
        assert!(!game.has_blind_reserve(seat));
        assert!(alike(&game, seat));
    }
    // A seat that does not exist has none.
    assert!(!game.has_blind_reserve(3));
    assert!(!game.has_blind_reserve(9));
}

#[test]
fn r6_4_views_hide_blind_reserves_from_everyone_but_their_owner() {
    let mut game = Position::new(2).build();
    ok(&mut game, 0, Action::ReserveFromDeck(Level(2)));
    ok(&mut game, 1, take3());
    ok(&mut game, 0, Action::ReserveFaceUp(CardId(3)));
    let own = game.view(Viewer::Seat(0));
    assert_eq!(
        own.seats[0].reserved,
        [
            ReservedView::Card {
                card: CardId(44),
                from_deck: true
            },
            ReservedView::Card {
                card: CardId(3),
                from_deck: false
            },
        ]
    );
    let expected = [
        ReservedView::Hidden { level: Level(2) },
        ReservedView::Card {
            card: CardId(3),
            from_deck: false,
        },
    ];
    assert_eq!(game.view(Viewer::Seat(1)).seats[0].reserved, expected);
    assert_eq!(game.view(Viewer::Spectator).seats[0].reserved, expected);
    // A seat that does not exist sees what a spectator sees.
    assert_eq!(game.view(Viewer::Seat(9)), game.view(Viewer::Spectator));
    // Nothing in the opponent's view names card 44.
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&game.view(Viewer::Seat(1))).unwrap();
        assert!(!json.contains("44"), "{json}");
    }
}

// ---- R7: buying ----

#[test]
fn r7_1_buy_a_face_up_card_pays_and_refills() {
    let mut game = Position::new(2).give(0, gems(0, 0, 0, 2, 1), 0).build();
    let events = ok(&mut game, 0, buy(0));
    assert_eq!(
        events,
        [
            Event::Bought {
                seat: 0,
                card: CardId(0),
                paid: tokens(gems(0, 0, 0, 2, 1), 0)
            },
            Event::Dealt {
                level: Level(1),
                slot: 0,
                card: CardId(4)
            },
        ]
    );
    // R7.4: the tokens are back in the supply.
    assert_eq!(game.supply(), tokens(gems(4, 4, 4, 4, 4), 5));
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.seats[0].purchased, [CardId(0)]);
    assert_eq!(view.seats[0].bonuses, [1, 0, 0, 0, 0]);
}

#[test]
fn r7_1_buy_a_card_from_your_own_reserve() {
    let mut game = Position::new(2)
        .reserved(0, 44, true)
        .give(0, gems(0, 0, 1, 4, 2), 0)
        .build();
    let events = ok(&mut game, 0, buy(44));
    assert_eq!(events.len(), 1, "no slot to refill: {events:?}");
    let view = game.view(Viewer::Seat(0));
    assert!(view.seats[0].reserved.is_empty());
    assert_eq!(view.seats[0].points, 2);
}

#[test]
fn r7_1_never_an_opponents_reserved_card_nor_a_hidden_one() {
    // 75: opponent's blind reserve; 76: opponent's face-up reserve; 80: in
    // a deck; 5: bought by the opponent. One answer for all (R6.4).
    let mut game = Position::new(2)
        .reserved(1, 75, true)
        .reserved(1, 76, false)
        .purchased(1, &[5])
        .give(0, gems(2, 2, 2, 2, 2), 0)
        .build();
    for card in [75, 76, 80, 5] {
        let e = err(&mut game, 0, buy(card));
        assert_error(
            &e,
            "card_not_available",
            &format!("buy: card {card} is neither face-up on the table nor in your reserve (R7.1)"),
        );
    }
}

#[test]
fn r7_2_a_card_made_free_by_bonuses_costs_nothing() {
    // Card 0 costs 2 ruby and 1 onyx; cards 24 and 30 give red, 32 black.
    let mut game = Position::new(2).purchased(0, &[24, 30, 32]).build();
    let events = ok(&mut game, 0, buy(0));
    assert!(matches!(
        events[0],
        Event::Bought { paid, .. } if paid == tokens(gems(0, 0, 0, 0, 0), 0)
    ));
    // R7.2: surplus bonuses never produce tokens.
    assert_eq!(game.tokens(0), Some(tokens(gems(0, 0, 0, 0, 0), 0)));
}

#[test]
fn r7_3_default_payment_spends_colours_first_then_gold() {
    // Card 3 costs 2 sapphire and 2 onyx.
    let mut game = Position::new(2).give(0, gems(0, 2, 0, 0, 1), 2).build();
    let events = ok(&mut game, 0, buy(3));
    assert!(matches!(
        events[0],
        Event::Bought { paid, .. } if paid == tokens(gems(0, 2, 0, 0, 1), 1)
    ));
    assert_eq!(game.tokens(0), Some(tokens(gems(0, 0, 0, 0, 0), 1)));
}

#[test]
fn r7_3_gold_can_stand_in_for_a_colour_you_hold() {
    let mut game = Position::new(2).give(0, gems(0, 2, 0, 0, 1), 2).build();
    let events = ok(&mut game, 0, buy_with_gold(3, [0, 1, 0, 0, 1]));
    assert!(matches!(
        events[0],
        Event::Bought { paid, .. } if paid == tokens(gems(0, 1, 0, 0, 1), 2)
    ));
    assert_eq!(game.tokens(0), Some(tokens(gems(0, 1, 0, 0, 0), 0)));
}

#[test]
fn r7_3_explicit_payments_must_match_the_cost_and_the_tokens_held() {
    let mut game = Position::new(2).give(0, gems(0, 2, 0, 0, 1), 2).build();
    let e = err(&mut game, 0, buy_with_gold(3, [1, 0, 0, 0, 1]));
    assert_error(
        &e,
        "gold_over_cost",
        "buy card 3: 1 gold for white, but only 0 are due after your bonuses (R7.3)",
    );
    let e = err(&mut game, 0, buy_with_gold(3, [0, 2, 0, 0, 1]));
    assert_error(
        &e,
        "not_enough_gold",
        "buy card 3: the payment uses 3 gold, you hold 2 (R7.3)",
    );
    let e = err(&mut game, 0, buy_with_gold(3, [0, 0, 0, 0, 0]));
    assert_error(
        &e,
        "cannot_afford",
        "buy card 3: this payment needs 2 black tokens, you hold 1 (R7.3)",
    );
}

#[test]
fn r7_3_cannot_afford_names_the_numbers() {
    let mut game = Position::new(2)
        .give(0, gems(0, 1, 0, 0, 0), 0)
        .purchased(0, &[8])
        .build();
    // Card 3 costs 2 sapphire and 2 onyx; card 8 gives one sapphire bonus.
    let e = err(&mut game, 0, buy(3));
    assert_error(
        &e,
        "cannot_afford",
        "buy card 3: it costs 1 blue and 2 black after your bonuses; you hold 1 blue, 0 black and 0 gold: 2 tokens short (R7.3)",
    );
}

#[test]
fn r7_5_the_bought_card_counts_its_points_and_bonus_from_the_next_purchase() {
    // Card 7 (1 point, white bonus) costs 4 emerald: its own bonus does not help.
    let mut game = Position::new(2)
        .purchased(0, &[]) // no bonus yet
        .give(0, gems(0, 0, 3, 0, 0), 0)
        .reserved(0, 7, false)
        .build();
    let e = err(&mut game, 0, buy(7));
    assert_eq!(e.code, "cannot_afford");
    let mut game = Position::new(2)
        .give(0, gems(0, 0, 4, 0, 0), 0)
        .reserved(0, 7, false)
        .build();
    ok(&mut game, 0, buy(7));
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.seats[0].points, 1);
    assert_eq!(view.seats[0].bonuses, [1, 0, 0, 0, 0]);
}

#[test]
fn r7a_an_empty_deck_leaves_the_slot_empty_and_play_goes_on() {
    let mut game = Position::new(2)
        .empty_deck(1)
        .give(0, gems(0, 0, 0, 2, 1), 0)
        .build();
    let events = ok(&mut game, 0, buy(0));
    assert_eq!(events.len(), 1, "nothing dealt: {events:?}");
    assert_eq!(game.view(Viewer::Spectator).face_up[0][0], None);
    ok(&mut game, 1, Action::ReserveFaceUp(CardId(1)));
    assert_eq!(
        game.view(Viewer::Spectator).face_up[0],
        [None, None, Some(CardId(2)), Some(CardId(3))]
    );
}

// ---- R8: the token limit ----

#[test]
fn r8_1_return_down_to_exactly_ten_choosing_a_just_taken_colour() {
    let mut game = Position::new(2).give(0, gems(2, 2, 2, 2, 0), 1).build();
    ok(
        &mut game,
        0,
        Action::TakeDifferent(colors(&[White, Blue, Black])),
    );
    assert_eq!(game.phase(), Phase::ReturnTokens { seat: 0, count: 2 });
    assert_eq!(game.to_act(), Some(0));
    let e = err(
        &mut game,
        0,
        Action::ReturnTokens(tokens(gems(0, 0, 0, 0, 1), 0)),
    );
    assert_error(
        &e,
        "wrong_return_count",
        "return tokens: return exactly 2 to keep 10, not 1 (R8.1)",
    );
    let e = err(
        &mut game,
        0,
        Action::ReturnTokens(tokens(gems(0, 0, 0, 0, 0), 2)),
    );
    assert_error(
        &e,
        "tokens_not_held",
        "return tokens: you hold 1 gold, cannot return 2 (R8.1)",
    );
    let e = err(&mut game, 0, Action::TakeTwo(Red));
    assert_error(
        &e,
        "wrong_phase",
        "you hold more than 10 tokens: return 2 tokens before anything else (R8.2)",
    );
    let e = err(&mut game, 1, take3());
    assert_eq!(e.code, "not_your_turn");
    // Black was just taken; returning it (and a white) is allowed.
    let back = tokens(gems(1, 0, 0, 0, 1), 0);
    let events = ok(&mut game, 0, Action::ReturnTokens(back));
    assert_eq!(
        events,
        [Event::ReturnedTokens {
            seat: 0,
            tokens: back
        }]
    );
    assert_eq!(game.tokens(0), Some(tokens(gems(2, 3, 2, 2, 0), 1)));
    assert_eq!(game.phase(), Phase::Main { seat: 1 });
}

#[test]
fn r8_1_every_way_to_return_is_listed() {
    // 10 tokens (7 diamond, 2 sapphire, 1 gold) plus a reserve's gold:
    // one token of any kind held goes back.
    let mut game = Position::new(4).give(0, gems(7, 2, 0, 0, 0), 1).build();
    ok(&mut game, 0, Action::ReserveFaceUp(CardId(0)));
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert_eq!(
        legal,
        [
            Action::ReturnTokens(tokens(gems(1, 0, 0, 0, 0), 0)),
            Action::ReturnTokens(tokens(gems(0, 1, 0, 0, 0), 0)),
            Action::ReturnTokens(tokens(gems(0, 0, 0, 0, 0), 1)),
        ]
    );
}

#[test]
fn r8_2_returning_comes_before_the_noble() {
    // Seat 0 already qualifies for noble 0 (4 ruby, 4 onyx) and holds 10 tokens.
    let mut game = Position::new(2)
        .nobles(&[0])
        .purchased(0, &[24, 25, 26, 27, 32, 33, 34, 35])
        .give(0, gems(2, 2, 2, 2, 2), 0)
        .build();
    let events = ok(&mut game, 0, take3());
    assert_eq!(
        events.len(),
        1,
        "the noble waits for the return: {events:?}"
    );
    let events = ok(
        &mut game,
        0,
        Action::ReturnTokens(tokens(gems(0, 0, 2, 0, 1), 0)),
    );
    assert_eq!(
        events[1],
        Event::NobleVisited {
            seat: 0,
            noble: NobleId(0)
        }
    );
}

// ---- R9: nobles ----

#[test]
fn r9_1_one_qualifying_noble_visits_without_a_question() {
    // Noble 0 wants 4 ruby and 4 onyx bonuses; card 35 gives the 4th onyx.
    let mut game = Position::new(2)
        .nobles(&[0, 1])
        .purchased(0, &[24, 25, 26, 27, 32, 33, 34])
        .reserved(0, 35, false)
        .give(0, gems(1, 1, 1, 1, 0), 0)
        .build();
    let events = ok(&mut game, 0, buy(35));
    assert_eq!(
        events[1],
        Event::NobleVisited {
            seat: 0,
            noble: NobleId(0)
        }
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.seats[0].nobles, [NobleId(0)]);
    assert_eq!(view.seats[0].points, 3);
    assert_eq!(view.nobles, [NobleId(1)]);
    assert_eq!(game.phase(), Phase::Main { seat: 1 });
}

#[test]
fn r9_1_tokens_never_count_for_nobles() {
    let mut game = Position::new(2)
        .nobles(&[0])
        .purchased(0, &[24, 25, 26, 27, 32, 33, 34])
        .give(0, gems(0, 0, 0, 0, 4), 0)
        .build();
    let events = ok(&mut game, 0, take3());
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(game.view(Viewer::Spectator).nobles, [NobleId(0)]);
}

#[test]
fn r9_3_two_qualifying_nobles_ask_for_a_choice_and_the_other_waits() {
    // Noble 0: 4 ruby + 4 onyx. Noble 8: 4 diamond + 4 onyx.
    let mut game = Position::new(2)
        .nobles(&[0, 8, 3])
        .purchased(0, &[24, 25, 26, 27, 32, 33, 34, 0, 1, 2, 3])
        .reserved(0, 35, false)
        .give(0, gems(1, 1, 1, 1, 0), 0)
        .build();
    let events = ok(&mut game, 0, buy(35));
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(game.phase(), Phase::ChooseNoble { seat: 0 });
    assert_eq!(
        game.view(Viewer::Seat(1)).noble_choices,
        [NobleId(0), NobleId(8)]
    );
    let e = err(&mut game, 0, Action::ChooseNoble(NobleId(3)));
    assert_error(
        &e,
        "noble_not_available",
        "choose noble: noble 3 does not qualify now; choose one of 0, 8 (R9.3)",
    );
    let e = err(&mut game, 0, Action::ChooseNoble(NobleId(10)));
    assert_eq!(e.code, "unknown_noble");
    let e = err(&mut game, 0, take3());
    assert_eq!(e.code, "wrong_phase");
    let events = ok(&mut game, 0, Action::ChooseNoble(NobleId(8)));
    assert_eq!(
        events,
        [Event::NobleVisited {
            seat: 0,
            noble: NobleId(8)
        }]
    );
    assert_eq!(game.phase(), Phase::Main { seat: 1 });
    // Noble 0 stays and visits at the end of seat 0's next turn.
    ok(&mut game, 1, take3());
    let events = ok(
        &mut game,
        0,
        Action::TakeDifferent(colors(&[Blue, Green, Black])),
    );
    assert_eq!(
        events[1],
        Event::NobleVisited {
            seat: 0,
            noble: NobleId(0)
        }
    );
    assert_eq!(game.points(0), Some(6));
}

// ---- R10: end of the game ----

/// Four players; `first` plays first; `trigger` holds 14 points and can buy
/// card 7 (1 point). Plays from the first seat until the game ends, with
/// every other seat taking tokens; returns the seats that played a turn
/// after the trigger.
fn play_to_the_end(first: Seat, trigger: Seat) -> Vec<Seat> {
    let mut game = Position::new(4)
        .first_seat(first)
        .purchased(trigger, &[73, 77, 79])
        .reserved(trigger, 7, false)
        .give(trigger, gems(0, 0, 4, 0, 0), 0)
        .build();
    let mut after = Vec::new();
    let mut triggered = false;
    let mut turns = 0;
    while let Some(seat) = game.to_act() {
        turns += 1;
        assert!(turns <= 8, "the game did not end");
        if triggered {
            after.push(seat);
        }
        let events = if seat == trigger && !triggered {
            let events = ok(&mut game, seat, buy(7));
            assert!(events.contains(&Event::EndTriggered { seat }), "{events:?}");
            triggered = true;
            events
        } else {
            ok(
                &mut game,
                seat,
                Action::TakeDifferent(colors(&[White, Blue, Red])),
            )
        };
        assert_eq!(events.last() == Some(&Event::GameOver), game.is_over());
    }
    let result = game.result().unwrap();
    assert_eq!(result.winners, [trigger]);
    assert!(!result.deadlock);
    after
}

#[test]
fn r10_2_first_seat_triggers_and_the_others_finish_the_round() {
    assert_eq!(play_to_the_end(1, 1), [2, 3, 0]);
}

#[test]
fn r10_2_middle_seat_triggers_and_the_round_is_finished() {
    assert_eq!(play_to_the_end(1, 3), [0]);
}

#[test]
fn r10_2_last_seat_triggers_and_the_game_ends_at_once() {
    // With seat 1 first, seat 0 is last in turn order.
    assert_eq!(play_to_the_end(1, 0), Vec::<Seat>::new());
    assert_eq!(play_to_the_end(0, 3), Vec::<Seat>::new());
}

/// Three players, the end already triggered, seat 2 (last) to move with
/// nothing to gain: the result follows from the purchased cards and nobles.
fn final_result(seats: [(&[u8], &[u8]); 3]) -> splendor_rules::GameResult {
    let mut position = Position::new(3).end_triggered().seat_to_move(2);
    for (seat, (cards, nobles)) in seats.iter().enumerate() {
        position = position.purchased(seat as Seat, cards);
        position.0.seats[seat].nobles = nobles.iter().map(|&n| NobleId(n)).collect();
    }
    position.0.nobles.clear();
    position.0.layout.nobles.clear();
    let mut game = position.build();
    let events = ok(&mut game, 2, take3());
    assert_eq!(events.last(), Some(&Event::GameOver));
    game.result().unwrap()
}

#[test]
fn r10_3_highest_score_wins() {
    // 73, 77 and 85 are worth 5 each; 79 and 71 4 each; 42 is worth 2.
    let result = final_result([(&[73, 77, 71], &[]), (&[79, 85], &[]), (&[89, 81, 42], &[])]);
    let ranking: Vec<(Seat, u8, u8, u8)> = result
        .ranking
        .iter()
        .map(|s| (s.seat, s.points, s.cards, s.rank))
        .collect();
    assert_eq!(ranking, [(0, 14, 3, 1), (2, 12, 3, 2), (1, 9, 2, 3)]);
    assert_eq!(result.winners, [0]);
}

#[test]
fn r10_4_tie_broken_by_fewest_purchased_cards() {
    // Seats 0 and 1 both have 15; seat 1 bought one card fewer.
    let result = final_result([(&[73, 79, 71, 43], &[]), (&[77, 85, 89], &[]), (&[42], &[])]);
    assert_eq!(result.winners, [1]);
    let ranks: Vec<(Seat, u8)> = result.ranking.iter().map(|s| (s.seat, s.rank)).collect();
    assert_eq!(ranks, [(1, 1), (0, 2), (2, 3)]);
}

#[test]
fn r10_4_still_tied_they_share_the_victory() {
    // 15 points and 3 cards each; seat 2 gets there with a noble.
    let result = final_result([(&[73, 77, 85], &[]), (&[42], &[]), (&[81, 89, 44], &[4])]);
    assert_eq!(result.winners, [0, 2]);
    let ranks: Vec<(Seat, u8, u8)> = result
        .ranking
        .iter()
        .map(|s| (s.seat, s.points, s.rank))
        .collect();
    assert_eq!(ranks, [(0, 15, 1), (2, 15, 1), (1, 2, 3)]);
}

#[test]
fn r10_5_reserved_cards_cost_nothing_at_the_end() {
    let mut position = Position::new(3)
        .end_triggered()
        .seat_to_move(2)
        .purchased(0, &[73, 77, 85]);
    position = position.reserved(0, 89, false).reserved(1, 81, true);
    let mut game = position.build();
    ok(&mut game, 2, take3());
    let result = game.result().unwrap();
    assert_eq!(result.ranking[0].points, 15);
    assert_eq!(result.ranking[1].points, 0);
}

// ---- R11: situations the rulebooks leave open ----

/// Two players with nothing to take, three unaffordable reserves each and
/// nothing on the table.
fn stuck_position() -> Position {
    Position::new(2)
        .clear_table()
        .reserved(0, 70, false)
        .reserved(0, 71, false)
        .reserved(0, 72, false)
        .reserved(1, 74, false)
        .reserved(1, 75, false)
        .reserved(1, 76, false)
        .give(0, gems(4, 4, 2, 0, 0), 0)
        .give(1, gems(0, 0, 2, 4, 4), 0)
}

#[test]
fn r11_1_pass_only_when_no_action_is_legal() {
    let mut game = Position::new(2).build();
    let e = err(&mut game, 0, Action::Pass);
    assert_error(
        &e,
        "pass_not_allowed",
        "pass: you may pass only when you can neither take, reserve nor buy (R11.1)",
    );

    let mut game = stuck_position().build();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert_eq!(legal, [Action::Pass]);
    assert_eq!(
        err(&mut game, 0, Action::TakeDifferent(colors(&[White]))).code,
        "supply_empty"
    );
    assert_eq!(
        err(&mut game, 0, Action::TakeTwo(White)).code,
        "take_two_supply"
    );
    assert_eq!(
        err(&mut game, 0, Action::ReserveFromDeck(Level(1))).code,
        "reserve_limit"
    );
    assert_eq!(err(&mut game, 0, buy(70)).code, "cannot_afford");
    assert_eq!(ok(&mut game, 0, Action::Pass), [Event::Passed { seat: 0 }]);
}

#[test]
fn r11_2_a_full_round_of_passes_ends_the_game() {
    let mut game = stuck_position().build();
    ok(&mut game, 0, Action::Pass);
    assert!(!game.is_over());
    let events = ok(&mut game, 1, Action::Pass);
    assert_eq!(events, [Event::Passed { seat: 1 }, Event::GameOver]);
    assert!(game.is_over());
    let result = game.result().unwrap();
    assert!(result.deadlock);
    // Scored as R10: nobody has points or cards, so both share the victory.
    assert_eq!(result.winners, [0, 1]);
}

#[test]
fn r11_2_an_action_between_passes_restarts_the_count() {
    // Three players, no gems in the supply. Seats 0 and 2 cannot act; seat
    // 1 can still reserve the last level 3 card (card 79, unaffordable).
    let mut position = Position::new(3)
        .clear_table()
        .reserved(0, 70, false)
        .reserved(0, 71, false)
        .reserved(0, 72, false)
        .reserved(2, 74, false)
        .reserved(2, 75, false)
        .reserved(2, 76, false)
        .reserved(1, 77, false)
        .reserved(1, 78, true)
        .give(0, gems(5, 5, 0, 0, 0), 0)
        .give(1, gems(0, 0, 0, 0, 5), 0)
        .give(2, gems(0, 0, 5, 5, 0), 0);
    let drawn = position.0.drawn[2] as usize;
    position.0.layout.decks[2].insert(drawn, CardId(79));
    let mut game = position.build();
    ok(&mut game, 0, Action::Pass);
    ok(&mut game, 1, Action::ReserveFromDeck(Level(3)));
    ok(&mut game, 2, Action::Pass);
    ok(&mut game, 0, Action::Pass);
    assert!(!game.is_over(), "the reserve broke the round of passes");
    let events = ok(&mut game, 1, Action::Pass);
    assert_eq!(events, [Event::Passed { seat: 1 }, Event::GameOver]);
    assert!(game.result().unwrap().deadlock);
}

#[test]
fn r11_4_only_the_active_seat_may_act() {
    let mut game = Position::new(2).build();
    let e = err(&mut game, 1, take3());
    assert_error(
        &e,
        "not_your_turn",
        "it is seat 0's turn, not seat 1's (R11.4)",
    );
    let e = err(&mut game, 7, take3());
    assert_error(
        &e,
        "unknown_seat",
        "there is no seat 7 in a 2-player game (R2)",
    );
    let e = err(&mut game, 0, Action::ChooseNoble(NobleId(0)));
    assert_eq!(e.code, "wrong_phase");
    let e = err(
        &mut game,
        0,
        Action::ReturnTokens(tokens(gems(1, 0, 0, 0, 0), 0)),
    );
    assert_eq!(e.code, "wrong_phase");

    let mut game = stuck_position().build();
    ok(&mut game, 0, Action::Pass);
    ok(&mut game, 1, Action::Pass);
    let e = err(&mut game, 0, Action::Pass);
    assert_error(&e, "game_over", "the game is over (R10.2)");
    let mut legal = vec![Action::Pass];
    game.legal_actions(&mut legal);
    assert!(legal.is_empty());
}

#[test]
fn actions_display_in_player_words() {
    let cases = [
        (take3(), "take white+blue+red"),
        (Action::TakeTwo(Green), "take two green"),
        (Action::ReserveFaceUp(CardId(17)), "reserve card 17"),
        (
            Action::ReserveFromDeck(Level(2)),
            "reserve from the level 2 deck",
        ),
        (buy(17), "buy card 17"),
        (
            buy_with_gold(17, [0, 1, 0, 2, 0]),
            "buy card 17 with gold for 1 blue 2 red",
        ),
        (
            Action::ReturnTokens(tokens(gems(2, 0, 0, 1, 0), 1)),
            "return 2 white, 1 red and 1 gold",
        ),
        (Action::ChooseNoble(NobleId(3)), "choose noble 3"),
        (Action::Pass, "pass"),
    ];
    for (action, text) in cases {
        assert_eq!(action.to_string(), text);
    }
}
