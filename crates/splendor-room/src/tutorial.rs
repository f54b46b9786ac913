//! The tutorial (issue 50): a first game that teaches, on a prepared deal.
//!
//! A tutorial room seats its creator and a built-in bot, the tutor. Its
//! game is dealt from a fixed seed, the learner (seat 0) first, and the
//! room itself plays the first moves of both seats ([`Script::prefix`]),
//! so that the learner starts one bonus short of a noble. Then come the
//! lessons: the learner is asked to take three gems (R4), take two of a
//! kind (R5), reserve the card that will bring the noble (R6), buy a card
//! with a bonus (R7.2), take tokens past ten and return some (R8), and
//! buy the reserved card, which brings the noble (R9). The tutor's moves
//! between them are scripted too; after the last lesson, or as soon as
//! any move differs from the script (a learner who plays something else
//! is free to), the tutor plays by its level.
//!
//! The deal and every move are data (`tutorial.json`, found by
//! `examples/tutorial_deal.rs`); every move is applied by `Game::apply`
//! like any other, stored in the game's log (the room's moves of the
//! learner's seat as the stand-in's), so the game replays and verifies as
//! any game does. The page reads the same script (`GET /tutorial.json`) to
//! ask for each lesson's move.

use std::sync::OnceLock;

use splendor_protocol::WireAction;
use splendor_rules::{Action, Seat};

/// The script as the page and the room read it.
pub const SCRIPT_JSON: &str = include_str!("tutorial.json");

/// The learner's seat: the room's creator.
pub const LEARNER: Seat = 0;

/// One move of the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Whose move.
    pub seat: Seat,
    /// The move.
    pub action: Action,
    /// The room plays it (every move but the learner's in the lessons).
    pub by_room: bool,
}

/// The tutorial's deal and moves.
#[derive(Debug)]
pub struct Script {
    /// The deal (R2.5).
    pub seed: u64,
    /// Every scripted move in order: the prefix, then the lessons'.
    pub steps: Vec<Step>,
    /// How many of them the room plays before the first lesson.
    pub prefix: usize,
}

impl Script {
    fn parse(json: &str) -> Result<Script, String> {
        let doc: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let seed = doc["seed"]
            .as_str()
            .ok_or("no seed")?
            .parse()
            .map_err(|e| format!("seed: {e}"))?;
        let lines = |key: &str| -> Result<Vec<(Seat, Action)>, String> {
            let list = doc[key].as_array().ok_or(format!("no {key}"))?;
            list.iter()
                .map(|line| {
                    let seat = line["seat"].as_u64().ok_or("no seat")?;
                    let wire: WireAction = serde_json::from_value(line["action"].clone())
                        .map_err(|e| e.to_string())?;
                    let action = Action::try_from(&wire).map_err(|e| format!("{e:?}"))?;
                    Ok((u8::try_from(seat).map_err(|e| e.to_string())?, action))
                })
                .collect()
        };
        let prefix = lines("prefix")?;
        let lessons = lines("lessons")?;
        let mut steps: Vec<Step> = prefix
            .iter()
            .map(|&(seat, action)| Step {
                seat,
                action,
                by_room: true,
            })
            .collect();
        steps.extend(lessons.iter().map(|&(seat, action)| Step {
            seat,
            action,
            by_room: seat != LEARNER,
        }));
        Ok(Script {
            seed,
            steps,
            prefix: prefix.len(),
        })
    }
}

/// The script, parsed once (a test checks it parses and plays).
pub fn script() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::parse(SCRIPT_JSON).expect("tutorial.json is a valid script"))
}

/// A tutorial game in play: whether every move so far was the script's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TutorialRun {
    pub(crate) on_script: bool,
}

impl TutorialRun {
    /// The move at `index` of the log was `(seat, action)`: off the script
    /// for good if it is not the script's.
    pub(crate) fn saw(&mut self, index: u64, seat: Seat, action: Action) {
        let expected = usize::try_from(index)
            .ok()
            .and_then(|i| script().steps.get(i));
        if expected.is_none_or(|s| s.seat != seat || s.action != action) {
            self.on_script = false;
        }
    }

    /// The move the room plays now, if the script has one for `seat` at
    /// `index`.
    pub(crate) fn room_move(self, index: u64, to_act: Option<Seat>) -> Option<Step> {
        if !self.on_script {
            return None;
        }
        let step = *script().steps.get(usize::try_from(index).ok()?)?;
        (step.by_room && to_act == Some(step.seat)).then_some(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_rules::{Event, Game, Options, Rulings};

    /// The script plays from its deal: every move legal in turn, the
    /// learner one bonus short of a noble at the first lesson, and the
    /// last lesson brings the noble (R9) with the game still going.
    #[test]
    fn the_script_plays_its_lessons_and_the_last_brings_a_noble() {
        let s = script();
        let options = Options {
            first_seat: Some(LEARNER),
            rulings: Rulings::CURRENT,
        };
        let mut game = Game::new(2, options, s.seed).unwrap();
        let mut last = None;
        for (i, step) in s.steps.iter().enumerate() {
            if i == s.prefix {
                assert_eq!(
                    game.to_act(),
                    Some(LEARNER),
                    "the lessons start with the learner"
                );
            }
            assert_eq!(game.to_act(), Some(step.seat), "step {i}");
            last = Some(
                game.apply(step.seat, step.action)
                    .unwrap_or_else(|e| panic!("step {i}: {e}")),
            );
        }
        let visited = last
            .unwrap()
            .iter()
            .any(|e| matches!(e, Event::NobleVisited { seat: LEARNER, .. }));
        assert!(visited, "the last lesson brings the noble");
        assert!(!game.is_over());
        let lessons = s.steps[s.prefix..].iter().filter(|st| !st.by_room).count();
        assert_eq!(lessons, 7, "six lessons, the return a move of its own");
    }

    #[test]
    fn a_move_off_the_script_stops_the_room_playing_it() {
        let s = script();
        let mut run = TutorialRun { on_script: true };
        let first = s.steps[0];
        assert_eq!(run.room_move(0, Some(first.seat)), Some(first));
        assert_eq!(
            run.room_move(0, Some(1 - first.seat)),
            None,
            "not that seat's turn"
        );
        run.saw(0, first.seat, first.action);
        assert!(run.on_script);
        let learner = s.steps[s.prefix];
        assert!(!learner.by_room, "the learner's lesson is the learner's");
        assert_eq!(run.room_move(s.prefix as u64, Some(LEARNER)), None);
        run.saw(s.prefix as u64, LEARNER, Action::Pass);
        assert!(!run.on_script);
        assert_eq!(run.room_move(s.prefix as u64 + 1, Some(1)), None);
    }
}
