//! The game state and the one entry point that changes it.
//!
//! The state is a `Copy` value of small fixed-size arrays and bit masks, so
//! that applying an action and enumerating legal actions never allocate.
//! Validation returns a cheap [`Reject`]; the player-facing [`RuleError`]
//! (with its `String` message) is built only when an action is refused.

// Colour-indexed loops walk several parallel `[_; 5]` arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::data::{CARDS, COST_WORDS, NOBLE_WORDS, NOBLES};
use crate::reject::Reject;
use crate::swar;
use crate::{
    Action, Card, CardId, Color, Events, GameResult, Gems, NobleId, Options, Phase, RuleError,
    Seat, SetupError, Standing, Tokens,
};

/// Marks an empty face-up slot (R7A) or an unused array entry.
pub(crate) const NONE: u8 = u8::MAX;
/// R8.1: the most tokens a player may hold at the end of a turn.
pub(crate) const TOKEN_LIMIT: u32 = 10;
/// R6.2: the most reserved cards a player may hold.
pub(crate) const MAX_RESERVED: u8 = 3;
/// R10.1: the points that trigger the end of the game.
pub(crate) const WINNING_POINTS: u8 = 15;
/// R11.6: the rounds in a row without a card bought or reserved that end
/// the game.
pub const NO_PROGRESS_ROUNDS: u8 = 25;
/// The largest deck (level 1, R1.2).
pub(crate) const DECK_CAPACITY: usize = 40;

/// Everything one seat owns. Bonuses, points and the card count are kept
/// up to date on every purchase and visit so that nothing is recounted in
/// the hot path; snapshots store only the sources and recompute them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatState {
    pub(crate) tokens: Tokens,
    /// R7.2: one per purchased card of that colour.
    pub(crate) bonuses: Gems,
    /// `bonuses` packed for the hot path (see `swar`).
    pub(crate) bonus_word: u64,
    /// R10.3: points of purchased cards plus 3 per noble.
    pub(crate) points: u8,
    /// R10.4: purchased cards, for the tie-break.
    pub(crate) cards: u8,
    /// Purchased cards as a bit mask over card ids.
    pub(crate) purchased: u128,
    /// Nobles that visited, as a bit mask over noble ids.
    pub(crate) nobles: u16,
    /// Reserved cards in the order they were reserved; `NONE` beyond `reserved_len`.
    pub(crate) reserved: [u8; MAX_RESERVED as usize],
    pub(crate) reserved_len: u8,
    /// Bit i set: `reserved[i]` was reserved blind from a deck (R6.4).
    pub(crate) blind: u8,
}

impl SeatState {
    pub(crate) fn reserved(&self) -> &[u8] {
        &self.reserved[..self.reserved_len as usize]
    }

    pub(crate) fn is_blind(&self, index: usize) -> bool {
        self.blind & (1 << index) != 0
    }

    /// Removes the reserved card at `index`, keeping the others in order.
    pub(crate) fn remove_reserved(&mut self, index: usize) {
        let len = self.reserved_len as usize;
        for i in index..len - 1 {
            self.reserved[i] = self.reserved[i + 1];
        }
        self.reserved[len - 1] = NONE;
        self.reserved_len -= 1;
        let low = self.blind & ((1 << index) - 1);
        let high = (self.blind >> (index + 1)) << index;
        self.blind = low | high;
    }

    pub(crate) fn add_purchase(&mut self, card: &Card) {
        self.bonuses[card.bonus.index()] += 1;
        self.bonus_word = swar::pack(&self.bonuses);
        self.points += card.points;
        self.cards += 1;
        self.purchased |= 1u128 << card.id.0;
    }

    pub(crate) fn add_noble(&mut self, noble: usize) {
        self.nobles |= 1 << noble;
        self.points += NOBLES[noble].points;
    }
}

/// A complete game (all hidden information included). `Copy`, under 512
/// bytes; cloning is a memcpy.
///
/// With the `serde` feature a game serializes as its [`crate::Snapshot`] and
/// is validated when deserialized, so a stored game restores exactly and a
/// corrupted one is refused instead of misbehaving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::Snapshot", try_from = "crate::Snapshot")
)]
pub struct Game {
    pub(crate) players: u8,
    pub(crate) first_seat: Seat,
    pub(crate) phase: Phase,
    /// Turns completed so far (a pass is a turn).
    pub(crate) turn: u32,
    /// R11.2: consecutive turns that were passes.
    pub(crate) passes: u8,
    /// R10.1 happened; the game ends after the last seat's turn.
    pub(crate) end_triggered: bool,
    /// How the game ended, once it did.
    pub(crate) ended: Option<crate::End>,
    /// The rulings the game is played by (R11.6 and R13.2 as amended
    /// apply from [`crate::Rulings::CURRENT`]).
    pub(crate) rulings: crate::Rulings,
    /// R11.6: rounds in a row in which no turn bought or reserved a card.
    pub(crate) idle_rounds: u8,
    /// R11.6: a turn of the round in progress bought or reserved a card.
    pub(crate) round_progress: bool,
    /// R13.2: the seats built-in bots hold, a bit per seat.
    pub(crate) bots: u8,
    /// R13.1: the order in which each seat resigned (1 = first), 0 while
    /// it is in play.
    pub(crate) resigned: [u8; 4],
    pub(crate) supply: Tokens,
    /// Each level's deck as dealt at setup, BOTTOM first, so that the top
    /// card is `decks[l][deck_len[l] - 1]` and drawing only shortens
    /// `deck_len`; the drawn part stays in place for `initial_layout`.
    pub(crate) decks: [[u8; DECK_CAPACITY]; 3],
    pub(crate) deck_len: [u8; 3],
    pub(crate) deck_initial_len: [u8; 3],
    /// Face-up cards per level and slot; `NONE` is an empty slot (R7A).
    pub(crate) face_up: [[u8; 4]; 3],
    pub(crate) initial_face_up: [[u8; 4]; 3],
    /// The nobles revealed at setup in table order (R2.2); `NONE` beyond
    /// `noble_count`. Those still on the table are in `nobles_left`.
    pub(crate) nobles: [u8; 5],
    pub(crate) noble_count: u8,
    pub(crate) nobles_left: u16,
    pub(crate) seats: [SeatState; 4],
}

/// Where a card the active seat wants to buy is (R7.1).
#[derive(Clone, Copy)]
pub(crate) enum BuySource {
    FaceUp { level: usize, slot: usize },
    Reserve { index: usize },
}

/// The fewest bonuses any noble requires in all (R9.1): a seat with fewer
/// purchased cards cannot qualify for any.
const MIN_NOBLE_BONUSES: u8 = {
    let mut min = u8::MAX;
    let mut i = 0;
    while i < crate::data::NOBLE_REQUIREMENT_SUMS.len() {
        if crate::data::NOBLE_REQUIREMENT_SUMS[i] < min {
            min = crate::data::NOBLE_REQUIREMENT_SUMS[i];
        }
        i += 1;
    }
    min
};

impl Game {
    /// R2: set up a game for `players` from `seed`: each deck shuffled, four
    /// cards dealt per level, `players + 1` nobles revealed, and the first
    /// seat drawn from the seed unless `options.first_seat` names it.
    pub fn new(players: u8, options: Options, seed: u64) -> Result<Game, SetupError> {
        crate::setup::seeded_game(players, options, seed)
    }

    /// Set up a game from an explicit layout (each deck's order, the face-up
    /// cards, the nobles, the first seat). Any subset of the cards may be
    /// used, each at most once and at its own level.
    pub fn from_layout(layout: &crate::Layout) -> Result<Game, SetupError> {
        crate::setup::game_from_layout(layout)
    }

    /// The layout this game started from (for replays). For a seeded game,
    /// `Game::from_layout(&game.initial_layout())` is the same game.
    pub fn initial_layout(&self) -> crate::Layout {
        crate::setup::initial_layout(self)
    }

    /// The number of players, 2, 3 or 4 (R2).
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The seat that played first (R2.4).
    pub fn first_seat(&self) -> Seat {
        self.first_seat
    }

    /// The rulings the game is played by.
    pub fn rulings(&self) -> crate::Rulings {
        self.rulings
    }

    /// How the game ended, once it did.
    pub fn end(&self) -> Option<crate::End> {
        self.ended
    }

    /// R11.6: the rounds in a row so far without a card bought or reserved.
    pub fn idle_rounds(&self) -> u8 {
        self.idle_rounds
    }

    /// The seat whose turn closes a round: the one before the first seat (R10.2).
    pub fn last_seat(&self) -> Seat {
        (self.first_seat + self.players - 1) % self.players
    }

    /// What the game waits for, and from whom.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Turns completed so far; a pass counts as a turn.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether R10.1 has triggered the end of the game.
    pub fn end_triggered(&self) -> bool {
        self.end_triggered
    }

    /// The seat that must act now, if any.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Main { seat }
            | Phase::ReturnTokens { seat, .. }
            | Phase::ChooseNoble { seat } => Some(seat),
            Phase::GameOver => None,
        }
    }

    /// Whether the game is over (R10.2, R11.2).
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Points of `seat` (cards plus nobles), public (R10.3).
    pub fn points(&self, seat: Seat) -> Option<u8> {
        (seat < self.players).then(|| self.seats[seat as usize].points)
    }

    /// Bonuses of `seat` per colour, public (R7.2).
    pub fn bonuses(&self, seat: Seat) -> Option<Gems> {
        (seat < self.players).then(|| self.seats[seat as usize].bonuses)
    }

    /// How many cards `seat` holds in reserve, public (R6.2).
    pub fn reserved_count(&self, seat: Seat) -> Option<u8> {
        (seat < self.players).then(|| self.seats[seat as usize].reserved_len)
    }

    /// The face-up cards (R2.3), level 1 first, empty slots left out:
    /// public.
    pub fn face_up_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.face_up
            .iter()
            .flatten()
            .filter(|&&c| c != NONE)
            .map(|&c| CardId(c))
    }

    /// The cards `seat` holds in reserve, in the order reserved, blind
    /// ones included: a game is the whole truth, so this is for the
    /// server's own game or a sample a player dealt itself (what a viewer
    /// may see of them is [`Game::view`]'s, R6.4).
    pub fn reserved_cards(&self, seat: Seat) -> impl Iterator<Item = CardId> + '_ {
        let reserved: &[u8] = match self.seats.get(usize::from(seat)) {
            Some(st) if seat < self.players => st.reserved(),
            _ => &[],
        };
        reserved.iter().map(|&c| CardId(c))
    }

    /// The nobles still on the table (R9.2): public.
    pub fn nobles_on_table(&self) -> impl Iterator<Item = NobleId> + '_ {
        (0..10u8)
            .filter(|&n| self.nobles_left & (1 << n) != 0)
            .map(NobleId)
    }

    /// The tokens in the supply.
    pub fn supply(&self) -> Tokens {
        self.supply
    }

    /// The tokens `seat` holds.
    pub fn tokens(&self, seat: Seat) -> Option<Tokens> {
        (seat < self.players).then(|| self.seats[seat as usize].tokens)
    }

    /// The final result (R10.3, R10.4), once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.is_over().then(|| self.standings())
    }

    /// The ranking this position shows, by the rules of the final one
    /// (R10.3, R10.4, R13.1), whether or not the game is over: the result
    /// of a game stopped here (the server's operators may end a game
    /// before its end; it then has no winner, which the server records).
    pub fn standings(&self) -> GameResult {
        let mut ranking: Vec<Standing> = (0..self.players)
            .map(|seat| {
                let s = &self.seats[seat as usize];
                Standing {
                    seat,
                    points: s.points,
                    cards: s.cards,
                    rank: 0,
                }
            })
            .collect();
        // R13.1: the seats in play first, then the resigned, a later
        // resignation above an earlier one (`resigned` orders are distinct,
        // so the resigned never share a rank); among the seats in play,
        // R10.3 highest score first and R10.4 fewest purchased cards breaks
        // a tie.
        // R13.2 as amended: a game that resignations left with one person
        // in play ranks that person first, the bots left below by R10.3
        // and R10.4 (a game between people is decided between people).
        let person_first =
            self.ended == Some(crate::End::Resigned) && self.rulings.person_left_first();
        let person =
            |seat: Seat| person_first && !self.has_resigned(seat) && self.bots & (1 << seat) == 0;
        let resigned = |seat: Seat| std::cmp::Reverse(self.resigned[usize::from(seat)]);
        ranking.sort_by_key(|s| {
            let in_play = !self.has_resigned(s.seat);
            let (points, cards) = if in_play { (s.points, s.cards) } else { (0, 0) };
            (
                std::cmp::Reverse(in_play),
                std::cmp::Reverse(person(s.seat)),
                resigned(s.seat),
                std::cmp::Reverse(points),
                cards,
                s.seat,
            )
        });
        for i in 0..ranking.len() {
            let key = |s: &Standing| {
                (
                    person(s.seat),
                    self.resigned[usize::from(s.seat)],
                    s.points,
                    s.cards,
                )
            };
            ranking[i].rank = if i > 0 && key(&ranking[i]) == key(&ranking[i - 1]) {
                ranking[i - 1].rank
            } else {
                i as u8 + 1
            };
        }
        // R10.4: still tied after the tie-break, they share the victory.
        let winners = ranking
            .iter()
            .filter(|s| s.rank == 1)
            .map(|s| s.seat)
            .collect();
        GameResult {
            ranking,
            winners,
            deadlock: self.ended == Some(crate::End::Deadlock),
            resigned: self.resigned(),
            end: self.ended,
        }
    }

    /// R12.6: the result of a game that ends deserted where it stands:
    /// those in play ranked by R10.3 and R10.4, the resigned below them
    /// (R13.1). The server decides when (nobody in play connected for 2
    /// minutes); the rules only rank.
    pub fn deserted(&self) -> GameResult {
        let mut result = self.standings();
        result.end = Some(crate::End::Deserted);
        result
    }

    /// The one entry point that changes a game: apply `action` for `seat`.
    /// A rejected action changes nothing (R11.3).
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Events, RuleError> {
        self.try_apply(seat, action)
            .map_err(|reject| reject.into_error(self, seat))
    }

    /// Colours with at least one token in the supply, as a mask.
    pub(crate) fn available_colors(&self) -> u8 {
        let mut mask = 0;
        for i in 0..5 {
            if self.supply.gems[i] > 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// R4.1, R4.2 against the supply.
    pub(crate) fn check_take_different(&self, set: u8) -> Result<(), Reject> {
        check_take_different(set, self.available_colors())
    }

    /// R5.1.
    pub(crate) fn check_take_two(&self, color: Color) -> Result<(), Reject> {
        let left = self.supply.gems[color.index()];
        if left < 4 {
            return Err(Reject::TakeTwoSupply { color, left });
        }
        Ok(())
    }

    /// R6.1, R6.2 for a face-up card: returns its level and slot.
    pub(crate) fn check_reserve_face_up(
        &self,
        seat: usize,
        card: CardId,
    ) -> Result<(usize, usize), Reject> {
        let level = card_level(card)?;
        if self.seats[seat].reserved_len >= MAX_RESERVED {
            return Err(Reject::ReserveLimit);
        }
        match self.face_up[level].iter().position(|&c| c == card.0) {
            Some(slot) => Ok((level, slot)),
            None => Err(Reject::ReserveNotFaceUp(card)),
        }
    }

    /// R6.1, R6.2 for a blind reserve: returns the level index.
    pub(crate) fn check_reserve_from_deck(&self, seat: usize, level: u8) -> Result<usize, Reject> {
        if !(1..=3).contains(&level) {
            return Err(Reject::UnknownLevel(level));
        }
        if self.seats[seat].reserved_len >= MAX_RESERVED {
            return Err(Reject::ReserveLimit);
        }
        let l = level as usize - 1;
        if self.deck_len[l] == 0 {
            return Err(Reject::DeckEmpty(level));
        }
        Ok(l)
    }

    /// R7.1: where `card` is, if `seat` may buy it. Every id that is not
    /// face-up and not in the seat's own reserve gets the same answer, so
    /// that the answer never tells where a hidden card is (R6.4).
    pub(crate) fn locate_buyable(&self, seat: usize, card: CardId) -> Result<BuySource, Reject> {
        let level = card_level(card)?;
        if let Some(slot) = self.face_up[level].iter().position(|&c| c == card.0) {
            return Ok(BuySource::FaceUp { level, slot });
        }
        match self.seats[seat]
            .reserved()
            .iter()
            .position(|&c| c == card.0)
        {
            Some(index) => Ok(BuySource::Reserve { index }),
            None => Err(Reject::BuyNotAvailable(card)),
        }
    }

    /// R7.2, R7.3: the default payment (coloured tokens first, gold for the
    /// shortfall) for a card id known to be valid.
    pub(crate) fn default_payment(&self, seat: usize, card: u8) -> Result<Tokens, Reject> {
        let s = &self.seats[seat];
        let short = shortfall(buying_power(s), card);
        if short > s.tokens.gold {
            return Err(Reject::CannotAfford {
                card: CardId(card),
                short: short - s.tokens.gold,
            });
        }
        // Per colour: due = cost - bonuses (never below 0), paid from that
        // colour as far as it goes; the rest is the shortfall, in gold.
        let cost = COST_WORDS[card as usize];
        let due = swar::saturating_sub(cost, s.bonus_word);
        let short_by_colour = swar::saturating_sub(cost, buying_power(s));
        Ok(Tokens {
            gems: swar::unpack(due - short_by_colour),
            gold: short,
        })
    }

    /// R7.3 with an explicit payment: `gold[c]` gold tokens stand in for
    /// colour `c`, the rest of each colour is paid with that colour.
    pub(crate) fn explicit_payment(
        &self,
        seat: usize,
        card: u8,
        gold: Gems,
    ) -> Result<Tokens, Reject> {
        let s = &self.seats[seat];
        let cost = &CARDS[card as usize].cost;
        let mut paid = Tokens::default();
        let mut gold_used = 0u32;
        for color in Color::ALL {
            let i = color.index();
            let due = cost[i].saturating_sub(s.bonuses[i]);
            if gold[i] > due {
                return Err(Reject::GoldOverCost {
                    card: CardId(card),
                    color,
                    gold: gold[i],
                    due,
                });
            }
            gold_used += gold[i] as u32;
            paid.gems[i] = due - gold[i];
        }
        if gold_used > s.tokens.gold as u32 {
            return Err(Reject::NotEnoughGold {
                card: CardId(card),
                used: gold_used,
                held: s.tokens.gold,
            });
        }
        paid.gold = gold_used as u8;
        for color in Color::ALL {
            let i = color.index();
            if paid.gems[i] > s.tokens.gems[i] {
                return Err(Reject::ColorShort {
                    card: CardId(card),
                    color,
                    needed: paid.gems[i],
                    held: s.tokens.gems[i],
                });
            }
        }
        Ok(paid)
    }

    /// R8.1: return exactly `count` tokens, each of them held.
    pub(crate) fn check_return(
        &self,
        seat: usize,
        count: u8,
        tokens: Tokens,
    ) -> Result<(), Reject> {
        let held = &self.seats[seat].tokens;
        let (held_word, given_word) = (swar::pack_tokens(held), swar::pack_tokens(&tokens));
        // Checked on words first (the hot path of enumerating returns);
        // the per-kind loops below only find what to report. The total
        // comes first: it bounds every byte below 128, as `swar` needs.
        if tokens.total() == count as u32 && swar::all_at_least(held_word, given_word) {
            return Ok(());
        }
        let given = tokens.total();
        if given != count as u32 {
            return Err(Reject::ReturnCount { count, given });
        }
        for color in Color::ALL {
            let i = color.index();
            if tokens.gems[i] > held.gems[i] {
                return Err(Reject::ReturnNotHeld {
                    color: Some(color),
                    given: tokens.gems[i],
                    held: held.gems[i],
                });
            }
        }
        Err(Reject::ReturnNotHeld {
            color: None,
            given: tokens.gold,
            held: held.gold,
        })
    }

    /// R9.3: `noble` must be one of those that qualify now.
    pub(crate) fn check_noble(&self, seat: usize, noble: u8) -> Result<(), Reject> {
        if noble as usize >= NOBLES.len() {
            return Err(Reject::UnknownNoble(noble));
        }
        if self.qualifying_nobles(seat) & (1 << noble) == 0 {
            return Err(Reject::NobleNotAvailable(NobleId(noble)));
        }
        Ok(())
    }

    /// R9.1: the nobles on the table whose requirements `seat`'s bonuses meet.
    pub(crate) fn qualifying_nobles(&self, seat: usize) -> u16 {
        if self.seats[seat].cards < MIN_NOBLE_BONUSES {
            return 0;
        }
        let bonuses = self.seats[seat].bonus_word;
        let mut left = self.nobles_left;
        let mut qualifying = 0;
        while left != 0 {
            let n = left.trailing_zeros() as usize;
            left &= left - 1;
            if swar::all_at_least(bonuses, NOBLE_WORDS[n]) {
                qualifying |= 1 << n;
            }
        }
        qualifying
    }

    /// The remaining deck of a level index, bottom first.
    pub(crate) fn deck(&self, level: usize) -> &[u8] {
        &self.decks[level][..self.deck_len[level] as usize]
    }
}

/// R7.2, R7.3: per colour, the bonuses plus the tokens of `seat` (packed).
pub(crate) fn buying_power(s: &SeatState) -> u64 {
    s.bonus_word + swar::pack(&s.tokens.gems)
}

/// R7.3: how many gold tokens buying `card` needs with the default
/// payment: the part of the cost that neither bonuses nor coloured tokens
/// cover. The card is affordable exactly when the seat holds that much gold.
pub(crate) fn shortfall(power: u64, card: u8) -> u8 {
    swar::sum(swar::saturating_sub(COST_WORDS[card as usize], power))
}

/// R4.1, R4.2: may the colours `set` be taken when the colours with
/// tokens in the supply are `available` (both masks over `Color::index`)?
/// R4.2 as ruled: with fewer than three colours available, one token each
/// of any of them (two, or one) may be taken.
pub(crate) const fn check_take_different(set: u8, available: u8) -> Result<(), Reject> {
    if set == 0 || set & !0x1f != 0 || set.count_ones() > 3 {
        return Err(Reject::TakeDifferentSet(set));
    }
    let missing = set & !available;
    if missing != 0 {
        return Err(Reject::ColorEmpty(
            Color::ALL[missing.trailing_zeros() as usize],
        ));
    }
    let count = available.count_ones() as u8;
    if count >= 3 && set.count_ones() != 3 {
        return Err(Reject::TakeDifferentCount {
            available: count,
            taken: set.count_ones() as u8,
        });
    }
    Ok(())
}

/// The 0-based level index of a card id, or `UnknownCard`.
pub(crate) fn card_level(card: CardId) -> Result<usize, Reject> {
    match CARDS.get(card.0 as usize) {
        Some(c) => Ok(c.level.0 as usize - 1),
        None => Err(Reject::UnknownCard(card.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_stays_small_and_copyable() {
        fn is_copy<T: Copy>() {}
        is_copy::<Game>();
        assert!(
            std::mem::size_of::<Game>() <= 512,
            "{}",
            std::mem::size_of::<Game>()
        );
        assert!(std::mem::size_of::<Action>() <= 8);
        assert!(std::mem::size_of::<Events>() <= 96);
    }

    #[test]
    fn no_noble_asks_for_fewer_than_eight_bonuses() {
        assert_eq!(MIN_NOBLE_BONUSES, 8);
    }
}
