//! Ratings of rated games (issue 13): Glicko-2, updated in the transaction
//! that records a rated game's result, and read for the leaderboard.
//!
//! A game of 2 to 4 is scored as pairwise results of its final places:
//! against each other rated seat a better place is a win, the same place (a
//! shared victory) a draw, a worse place a loss. Each player's results of
//! one game form one Glicko-2 rating period, computed from everyone's
//! ratings before the game (`skillratings::glicko2::glicko2_rating_period`,
//! τ = 0.5). Only seats of sessions are rated; a built-in bot's seat is not.
//!
//! A rated identity is a session; its public id ([`player_id`]) is ten
//! hexadecimal digits of SHA-256 over a fixed prefix and the session id:
//! stable, short, and revealing neither the id nor the token.

use sha2::{Digest, Sha256};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use uuid::Uuid;

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A player whose deviation is above this is provisional (as on Lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The most rows one leaderboard page holds.
pub const MAX_BOARD_PAGE: u32 = 100;

/// How many recent rated games [`Store::player`] returns.
pub const RECENT_GAMES: u32 = 20;

/// The public id of a session's rated identity: ten lowercase hex digits.
pub fn player_id(session: SessionId) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"splendor player id\0");
    hasher.update(session.0.as_bytes());
    let digest = hasher.finalize();
    digest[..5].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a text has the shape of a [`player_id`].
pub fn is_player_id(text: &str) -> bool {
    text.len() == 10
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// One rated player, as the leaderboard lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The public id ([`player_id`]).
    pub player_id: String,
    /// The name at their last rated game.
    pub name: String,
    /// A program (`"bot":true` in hello), ranked apart from people.
    pub bot: bool,
    /// The Glicko-2 rating (1500 at first).
    pub rating: f64,
    /// The rating deviation (350 at first).
    pub deviation: f64,
    /// The Glicko-2 volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u64,
    /// Of those, games finished in first place (shared or not).
    pub wins: u64,
    /// When their last rated game ended.
    pub last_played: UnixMillis,
}

impl PlayerRating {
    /// True while the deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// One rated game of a player, for their page.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The game.
    pub game_id: Uuid,
    /// When it ended.
    pub finished_at: UnixMillis,
    /// How many played.
    pub players: u8,
    /// The player's place, 1-based (equal places are shared).
    pub place: u8,
    /// The rating before and after the game.
    pub rating_before: f64,
    /// The rating after the game.
    pub rating_after: f64,
    /// The others at the table, in seat order (issue 24).
    pub opponents: Vec<Opponent>,
}

/// Another player of a rated game, as a player's page lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct Opponent {
    /// Their name at that table ("a former player" once forgotten).
    pub name: String,
    /// Their public id; `None` for a built-in bot and a forgotten player.
    pub player_id: Option<String>,
    /// A built-in bot's level.
    pub bot: Option<String>,
    /// A program played for them (issue 24).
    pub program: bool,
}

/// Whose players a leaderboard lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// People.
    Humans,
    /// Programs (`"bot":true` in hello).
    Bots,
}

/// One page of a leaderboard, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPage {
    /// Rated players of that kind in all.
    pub total: u64,
    /// This page's rows.
    pub players: Vec<PlayerRating>,
}

/// A rated seat as the finishing transaction reads it.
#[derive(Clone, Debug)]
pub(crate) struct RatedSeat {
    pub(crate) seat: u8,
    pub(crate) session: Uuid,
    pub(crate) name: String,
    pub(crate) bot: bool,
    pub(crate) place: u8,
    /// The rating before the game, and games and wins so far.
    pub(crate) before: Glicko2Rating,
    pub(crate) games: i64,
    pub(crate) wins: i64,
}

/// What the finishing transaction writes for one seat.
#[derive(Clone, Debug)]
pub(crate) struct RatedUpdate {
    pub(crate) seat: RatedSeat,
    pub(crate) after: Glicko2Rating,
}

/// The rating of a session that has none yet.
pub(crate) fn initial() -> Glicko2Rating {
    Glicko2Rating::new()
}

/// In the people's pool, a session moves others' ratings fully only once
/// it has finished this many rated games (issue 22: ratings integrity).
pub(crate) const ESTABLISHED_GAMES: i64 = 5;

/// How much a result against a session with fewer than
/// [`ESTABLISHED_GAMES`] counts, in the people's pool: a farmer who beats a
/// dozen throwaway sessions gains tens of points, not hundreds.
pub(crate) const FRESH_OPPONENT_WEIGHT: f64 = 0.02;

/// R13.4: a rated game in which a seat that is not a built-in bot made
/// fewer than this many moves of its own (the stand-in's not counted) is
/// unrated when it ends, and counts toward no one's established games.
pub const R13_4_OWN_MOVES: i64 = 5;

/// The most rating points a person gains from one opponent in
/// [`GAIN_WINDOW_MS`], and the most they lose to one (issue 46: a farmer
/// beating a throwaway or a friend again and again gains this much at most
/// a day from each; the loser loses no more, so rematches do not drain
/// ratings). The programs' pool is not capped: its bots play each other
/// all day, and every result counts.
pub const MAX_GAIN_PER_OPPONENT: f64 = 40.0;

/// The window of [`MAX_GAIN_PER_OPPONENT`]: a day.
pub const GAIN_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// The rating stored for a person's seat that gained `gained` and lost
/// `lost` in the last [`GAIN_WINDOW_MS`] in games with one of this game's
/// opponents (the most with any of them): a gain is cut to what is left of
/// [`MAX_GAIN_PER_OPPONENT`] of `gained`, a loss to what is left of it of
/// `lost`. The deviation and volatility are Glicko-2's as computed. In a
/// game of more than two, the whole change is held to each opponent's
/// share: the strictest reading.
pub(crate) fn cap_change(update: &mut RatedUpdate, (gained, lost): (f64, f64)) {
    let change = update.after.rating - update.seat.before.rating;
    let before = update.seat.before.rating;
    if change > 0.0 {
        let left = (MAX_GAIN_PER_OPPONENT - gained).max(0.0);
        update.after.rating = before + change.min(left);
    } else if change < 0.0 {
        let left = (MAX_GAIN_PER_OPPONENT - lost).max(0.0);
        update.after.rating = before + change.max(-left);
    }
}

/// The Glicko-2 step of one game: every seat's new rating from everyone's
/// rating before it and the pairwise results of their places. In the
/// people's pool, results against opponents with fewer than
/// [`ESTABLISHED_GAMES`] rated games count [`FRESH_OPPONENT_WEIGHT`] of
/// their usual weight (the step with them is taken, and only that share of
/// its change kept); the bots' pool counts every result.
pub(crate) fn rate(seats: Vec<RatedSeat>) -> Vec<RatedUpdate> {
    let config = Glicko2Config::new();
    let before: Vec<(Glicko2Rating, u8, bool)> = seats
        .iter()
        .map(|s| (s.before, s.place, s.bot || s.games >= ESTABLISHED_GAMES))
        .collect();
    seats
        .into_iter()
        .enumerate()
        .map(|(i, seat)| {
            let outcome_against = |place: u8| match seat.place.cmp(&place) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
            };
            let others = before.iter().enumerate().filter(|(j, _)| *j != i);
            let (full, fresh): (Vec<_>, Vec<_>) =
                others.partition(|&(_, &(_, _, established))| seat.bot || established);
            let full: Vec<(Glicko2Rating, Outcomes)> = full
                .into_iter()
                .map(|(_, &(rating, place, _))| (rating, outcome_against(place)))
                .collect();
            let fresh: Vec<(Glicko2Rating, Outcomes)> = fresh
                .into_iter()
                .map(|(_, &(rating, place, _))| (rating, outcome_against(place)))
                .collect();
            let mut after = if full.is_empty() {
                seat.before
            } else {
                glicko2_rating_period(&seat.before, &full, &config)
            };
            if !fresh.is_empty() {
                let with = glicko2_rating_period(&after, &fresh, &config);
                let blend = |a: f64, b: f64| a + FRESH_OPPONENT_WEIGHT * (b - a);
                after = Glicko2Rating {
                    rating: blend(after.rating, with.rating),
                    deviation: blend(after.deviation, with.deviation),
                    volatility: blend(after.volatility, with.volatility),
                };
            }
            RatedUpdate { seat, after }
        })
        .collect()
}

impl Store {
    /// One page (1-based) of the leaderboard of `kind`, best rating first,
    /// `per_page` from 1 to [`MAX_BOARD_PAGE`].
    pub async fn leaderboard(
        &self,
        kind: BoardKind,
        page: u32,
        per_page: u32,
    ) -> Result<BoardPage, StoreError> {
        if per_page == 0 || per_page > MAX_BOARD_PAGE {
            return Err(StoreError::invalid(
                "page size",
                format!("it must be from 1 to {MAX_BOARD_PAGE}, not {per_page}"),
            ));
        }
        if page == 0 {
            return Err(StoreError::invalid("page", "pages are numbered from 1"));
        }
        let offset = i64::from(page - 1) * i64::from(per_page);
        let bot = kind == BoardKind::Bots;
        dispatch!(&self.inner.pool, pool, q => q::leaderboard(pool, bot, offset, i64::from(per_page)).await)
    }

    /// The rated player with this public id, if any.
    pub async fn player(&self, player_id: &str) -> Result<Option<PlayerRating>, StoreError> {
        if !is_player_id(player_id) {
            return Ok(None);
        }
        dispatch!(&self.inner.pool, pool, q => q::player_by_id(pool, player_id).await)
    }

    /// The rated players whose name is exactly `name` (at most 20).
    pub async fn players_named(&self, name: &str) -> Result<Vec<PlayerRating>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::players_named(pool, name).await)
    }

    /// A rated player's last [`RECENT_GAMES`] rated games, newest first.
    pub async fn recent_rated_games(&self, player_id: &str) -> Result<Vec<RatedGame>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::recent_rated_games(pool, player_id, i64::from(RECENT_GAMES)).await)
    }

    /// The rating of a session, if it played a rated game.
    pub async fn rating_of(&self, session: SessionId) -> Result<Option<PlayerRating>, StoreError> {
        self.player(&player_id(session)).await
    }

    /// Whether the session is a bot's (`false` for an unknown one).
    pub async fn session_is_bot(&self, session: SessionId) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::session_is_bot(pool, session).await)
    }

    /// Marks a session as played by a program (`"bot":true` in hello); it
    /// stays one. Its rating row, if any, follows at its next rated game.
    pub async fn mark_bot(&self, session: SessionId) -> Result<(), StoreError> {
        self.write(crate::writer::WriteOp::MarkBot { id: session })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(place: u8) -> RatedSeat {
        RatedSeat {
            seat: 0,
            session: Uuid::nil(),
            name: "x".into(),
            bot: false,
            place,
            before: initial(),
            games: 0,
            wins: 0,
        }
    }

    fn established(place: u8) -> RatedSeat {
        RatedSeat {
            games: ESTABLISHED_GAMES,
            ..seat(place)
        }
    }

    #[test]
    fn a_gain_is_cut_to_what_is_left_of_a_days_share_of_an_opponent() {
        let mut out = rate(vec![seat(1), established(2)]);
        let won = out.remove(0);
        let full = won.after.rating - won.seat.before.rating;
        assert!(full > MAX_GAIN_PER_OPPONENT, "{full}");
        let mut cut = won.clone();
        cap_change(&mut cut, (0.0, 0.0));
        assert_eq!(
            cut.after.rating - cut.seat.before.rating,
            MAX_GAIN_PER_OPPONENT
        );
        let mut cut = won.clone();
        cap_change(&mut cut, (30.0, 100.0));
        assert!((cut.after.rating - cut.seat.before.rating - 10.0).abs() < 1e-9);
        let mut none = won.clone();
        cap_change(&mut none, (55.0, 0.0));
        assert_eq!(none.after.rating, none.seat.before.rating);
        // A loss is held to what is left of the loser's share the same way.
        let lost = out.remove(0);
        let full = lost.seat.before.rating - lost.after.rating;
        assert!(full > 0.0, "{full}");
        let mut kept = lost.clone();
        cap_change(&mut kept, (100.0, 0.0));
        let floor = lost.seat.before.rating - MAX_GAIN_PER_OPPONENT;
        assert_eq!(kept.after.rating, lost.after.rating.max(floor));
        let mut spent = lost.clone();
        cap_change(&mut spent, (0.0, MAX_GAIN_PER_OPPONENT));
        assert_eq!(spent.after.rating, spent.seat.before.rating);
    }

    /// Issue 22: a farmer who beats twelve fresh throwaway sessions, one
    /// after the other, gains at most 50 points; against established
    /// players the same wins count fully.
    #[test]
    fn wins_over_fresh_sessions_count_little_and_over_established_ones_fully() {
        let mut farmer = seat(1);
        for _ in 0..12 {
            let out = rate(vec![farmer.clone(), seat(2)]);
            farmer.before = out[0].after;
            farmer.games += 1;
        }
        let farmed = farmer.before.rating;
        assert!(farmed > 1500.0 && farmed <= 1550.0, "{farmed}");
        let mut honest = seat(1);
        for _ in 0..12 {
            let out = rate(vec![honest.clone(), established(2)]);
            honest.before = out[0].after;
            honest.games += 1;
        }
        assert!(honest.before.rating > 1800.0, "{}", honest.before.rating);
        // The throwaway still loses its points to an established winner.
        let out = rate(vec![established(1), seat(2)]);
        assert!(out[1].after.rating < 1400.0, "{}", out[1].after.rating);
        // Program bots keep every result (their pool has its own rules).
        let bot = |place| RatedSeat {
            bot: true,
            ..seat(place)
        };
        let out = rate(vec![bot(1), bot(2)]);
        assert!(out[0].after.rating > 1600.0, "{}", out[0].after.rating);
    }

    #[test]
    fn the_winner_goes_up_and_the_loser_down() {
        let out = rate(vec![seat(1), seat(2)]);
        assert!(out[0].after.rating > 1500.0);
        assert!(out[1].after.rating < 1500.0);
        assert!(out[0].after.deviation < 350.0);
    }

    #[test]
    fn a_shared_victory_between_equals_moves_nobody() {
        let out = rate(vec![seat(1), seat(1)]);
        for u in &out {
            assert!((u.after.rating - 1500.0).abs() < 1e-9);
        }
    }

    #[test]
    fn in_four_places_are_ordered_and_the_sum_is_kept_roughly() {
        let out = rate(vec![seat(1), seat(2), seat(3), seat(4)]);
        let r: Vec<f64> = out.iter().map(|u| u.after.rating).collect();
        assert!(r[0] > r[1] && r[1] > r[2] && r[2] > r[3], "{r:?}");
        let sum: f64 = r.iter().sum();
        assert!((sum - 6000.0).abs() < 1.0, "{sum}");
    }

    #[test]
    fn player_ids_are_ten_hex_digits_and_stable() {
        let id = SessionId(Uuid::from_u128(42));
        assert_eq!(player_id(id), player_id(id));
        assert!(is_player_id(&player_id(id)));
        assert_ne!(player_id(id), player_id(SessionId(Uuid::from_u128(43))));
        assert!(!is_player_id("ABCDEF0123"));
        assert!(!is_player_id("abc"));
    }
}
