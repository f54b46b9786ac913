//! The command line: defaults, and that bad values are refused by clap
//! before anything connects.

use splendor_bot::RoomChoice;
use splendor_bot::cli::Args;

fn args(line: &[&str]) -> Result<Args, clap::Error> {
    Args::parse_words(line.iter().copied())
}

#[test]
fn a_creating_bot_starts_when_its_room_is_full_unless_told_otherwise() {
    let config = args(&["--seats", "3"]).unwrap().into_config();
    assert_eq!(
        config.room,
        RoomChoice::Create {
            seats: 3,
            listed: false
        }
    );
    assert_eq!(config.start_when, Some(3));
    let config = args(&["--seats", "4", "--start-when", "2", "--listed"])
        .unwrap()
        .into_config();
    assert_eq!(
        config.room,
        RoomChoice::Create {
            seats: 4,
            listed: true
        }
    );
    assert_eq!(config.start_when, Some(2));
}

#[test]
fn a_joining_bot_starts_only_when_asked() {
    let config = args(&["--join", "abcde", "--name", "bob", "--token", "t"])
        .unwrap()
        .into_config();
    assert_eq!(
        config.room,
        RoomChoice::Join {
            code: "abcde".into()
        }
    );
    assert_eq!((config.start_when, config.name.as_str()), (None, "bob"));
    assert_eq!(config.token.as_deref(), Some("t"));
}

#[test]
fn out_of_range_and_unknown_values_are_refused() {
    for line in [
        &["--seats", "5"][..],
        &["--seats", "1"],
        &["--start-when", "9"],
        &["--strategy", "clever"],
        &["--seed", "-1"],
        &["--colour", "red"],
    ] {
        assert!(args(line).is_err(), "{line:?}");
    }
}
