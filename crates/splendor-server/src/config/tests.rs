//! The configuration: flags, defaults and the checks between them.
use super::*;

#[test]
fn the_database_defaults_to_a_file_in_the_data_directory() {
    let config =
        Config::try_parse_from(["splendor-server", "--data-dir", "/srv/splendor"]).unwrap();
    assert_eq!(
        config.database_url().expose(),
        "sqlite:///srv/splendor/splendor.db"
    );
    let config = Config::try_parse_from([
        "splendor-server",
        "--database-url",
        "postgres://splendor:hunter2@db.example/splendor",
    ])
    .unwrap();
    let url = config.database_url();
    assert!(url.is_postgres());
    assert_eq!(
        url.expose(),
        "postgres://splendor:hunter2@db.example/splendor"
    );
    assert_eq!(
        url.to_string(),
        "postgres://splendor:***@db.example/splendor"
    );
    assert!(!format!("{config:?}").contains("hunter2"));
    let no_password: DatabaseUrl = "postgres://splendor@db/x".parse().unwrap();
    assert_eq!(no_password.to_string(), "postgres://splendor@db/x");
    assert!(
        Config::try_parse_from(["splendor-server", "--database-url", "mysql://x@y/z"]).is_err()
    );
}

#[test]
fn defaults_match_the_flags() {
    assert_eq!(
        Config::try_parse_from(["splendor-server"]).unwrap(),
        Config::default()
    );
}

#[test]
fn the_commit_delay_reaches_the_store_and_zero_turns_it_off() {
    let store = |args: &[&str]| {
        let mut argv = vec!["splendor-server"];
        argv.extend_from_slice(args);
        Config::try_parse_from(argv).unwrap().storage.store_config()
    };
    assert_eq!(store(&[]).commit_delay, Duration::from_millis(2));
    assert_eq!(
        store(&["--commit-delay", "3ms"]).commit_delay,
        Duration::from_millis(3)
    );
    assert_eq!(store(&["--commit-delay", "0"]).commit_delay, Duration::ZERO);
    assert!(Config::try_parse_from(["splendor-server", "--commit-delay", "soon"]).is_err());
}

#[test]
fn flags_override_defaults() {
    let config = Config::try_parse_from([
        "splendor-server",
        "--listen",
        "0.0.0.0:9000",
        "--room-idle-ttl",
        "250ms",
        "--empty-room-ttl",
        "5s",
        "--max-waiting-rooms-per-ip",
        "3",
        "--metrics-listen",
        "127.0.0.1:9090",
    ])
    .unwrap();
    assert_eq!(config.listen.port(), 9000);
    let lobby = config.lobby();
    assert_eq!(lobby.room_idle_ttl, Duration::from_millis(250));
    assert_eq!(lobby.empty_room_ttl, Duration::from_secs(5));
    assert_eq!(lobby.max_waiting_rooms_per_ip, 3);
    assert_eq!(config.metrics_listen, Some(([127, 0, 0, 1], 9090).into()));
    assert_eq!(config.check(), Ok(()));
}

#[test]
fn every_setting_has_an_environment_variable_and_help() {
    use clap::CommandFactory;
    let command = Config::command();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if id == "help" || id == "version" {
            continue;
        }
        let env = arg.get_env().unwrap_or_else(|| panic!("--{id} has no env"));
        let expected = format!("SPLENDOR_{}", id.to_uppercase());
        assert_eq!(env.to_str(), Some(expected.as_str()), "--{id}");
        assert!(arg.get_help().is_some(), "--{id} has no help");
    }
}

#[test]
fn lists_and_limits_parse_from_flags() {
    let config = Config::try_parse_from([
        "splendor-server",
        "--allowed-origins",
        "https://a.example,https://b.example:8443",
        "--name-chars",
        "ascii",
        "--max-name-chars",
        "12",
        "--allow-same-origin",
        "false",
    ])
    .unwrap();
    assert_eq!(config.allowed_origins.len(), 2);
    assert_eq!(
        config.allowed_origins[1].to_string(),
        "https://b.example:8443"
    );
    assert_eq!(config.name_policy().max_chars, 12);
    assert!(!config.allow_same_origin);
    for bad in [
        &["--allowed-origins", "b.example"][..],
        &["--max-name-chars", "65"],
        &["--max-name-chars", "0"],
        &["--max-messages-per-second", "0"],
        &["--heartbeat-interval", "0s"],
        &["--name-chars", "emoji"],
        &["--log-format", "xml"],
    ] {
        let args = std::iter::once("splendor-server").chain(bad.iter().copied());
        assert!(Config::try_parse_from(args).is_err(), "{bad:?} parsed");
    }
}

#[test]
fn settings_that_depend_on_each_other_are_checked() {
    assert_eq!(Config::default().check(), Ok(()));
    let config = Config {
        heartbeat_interval: Duration::from_secs(30),
        heartbeat_timeout: Duration::from_secs(30),
        ..Config::default()
    };
    assert!(config.check().unwrap_err().contains("--heartbeat-timeout"));
    let config = Config {
        client_ip_header: Some("X Forwarded".into()),
        ..Config::default()
    };
    assert!(config.check().is_err());
    let config = Config {
        max_waiting_rooms_per_ip: 0,
        ..Config::default()
    };
    assert!(
        config
            .check()
            .unwrap_err()
            .contains("--max-waiting-rooms-per-ip")
    );
    let config = Config {
        metrics_listen: Some(Config::default().listen),
        ..Config::default()
    };
    assert!(config.check().unwrap_err().contains("--metrics-listen"));
}

#[test]
fn durations_read_like_people_write_them() {
    assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
    assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
    assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
    assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
    assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
    assert!(parse_duration("").is_err());
    assert!(parse_duration("m").is_err());
    assert_eq!(parse_duration("30d"), Ok(Duration::from_secs(30 * 86_400)));
    assert!(parse_duration("5w").is_err());
    assert!(parse_duration("-5s").is_err());
    assert!(parse_duration("99999999999999999999h").is_err());
}

#[test]
fn retention_is_longer_than_the_abandoned_game_time() {
    let parse = |retention: &str| {
        Config::try_parse_from(["splendor-server", "--retention", retention])
            .unwrap()
            .check()
    };
    assert_eq!(parse("90d"), Ok(()));
    let e = parse("12h").unwrap_err();
    assert!(e.contains("--retention") && e.contains("abandoned"), "{e}");
    assert_eq!(Config::default().retention, None);
}

#[test]
fn a_public_url_is_a_plain_http_address() {
    let parse = |url: &str| {
        Config::try_parse_from(["splendor-server", "--public-url", url])
            .unwrap()
            .check()
    };
    for good in [
        "https://splendor.example.org",
        "https://splendor.example.org/",
        "http://192.0.2.7:8080/games-night",
    ] {
        assert_eq!(parse(good), Ok(()), "{good}");
    }
    for bad in [
        "splendor.example.org",
        "ftp://x",
        "https://",
        "https://x/?a=1",
        "https://x/#ABCDE",
        "https://x y",
        "javascript:alert(1)",
    ] {
        let e = parse(bad).unwrap_err();
        assert!(e.contains("--public-url"), "{bad}: {e}");
    }
    assert_eq!(Config::default().public_url, None);
}
