//! The `greedy` level: [`crate::strategy::Greedy`], the example bot's
//! strategy, on the wire form of the seat's view. Frozen: it is the
//! yardstick the `strong` level is measured against (docs/BENCHMARKS.md).

use splendor_protocol::WireAction;
use splendor_protocol::view::{StateContext, state_info};
use splendor_rules::{Action, Game, Seat, View};

use crate::strategy::{Greedy, Strategy};

/// Greedy's choice for `seat`, whose view is `view`; `game` is any sample
/// of that view (for the legal actions, which it cannot hide).
pub fn choose(view: &View, seat: Seat, game: &Game) -> Action {
    let legal = crate::legal(game);
    let Some(&first) = legal.first() else {
        return Action::Pass;
    };
    let state = state_info(
        view,
        StateContext {
            room: "",
            game: "",
            commitment: "",
            version: 0,
            you: Some(seat),
            names: &[],
            legal_actions: Some(legal.iter().copied().map(WireAction::from).collect()),
            clocks: None,
        },
    );
    let wire = Greedy.choose(&state);
    Action::try_from(&wire).unwrap_or(first)
}
