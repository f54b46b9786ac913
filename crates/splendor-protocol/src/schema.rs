//! The JSON Schema of the protocol (docs/protocol.schema.json), derived
//! from the message types with `schemars` so that it cannot drift from
//! them: its root validates every frame the server sends, and
//! `$defs/ClientFrame` every frame a client may send. The committed file
//! is checked against [`protocol_schema`] by a test
//! (`UPDATE_SCHEMA=1 cargo test -p splendor-protocol schema` rewrites it).
//!
//! Cards and nobles are written by hand: they travel as objects, or as
//! bare ids in lean states (see [`crate::lean`]).

use std::borrow::Cow;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use splendor_rules::{CardId, Color, Level, NobleId};

use crate::client::ClientFrame;
use crate::server::ServerMessage;
use crate::state::{CardInfo, NobleInfo};
use crate::tokens::GemCounts;

impl JsonSchema for CardInfo {
    fn schema_name() -> Cow<'static, str> {
        "CardInfo".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let id = generator.subschema_for::<CardId>();
        let level = generator.subschema_for::<Level>();
        let color = generator.subschema_for::<Color>();
        let gems = generator.subschema_for::<GemCounts>();
        json_schema!({
            "description": "A development card (R1.2): its object, or its bare id (0 to 89) in a lean state.",
            "anyOf": [
                id,
                {
                    "type": "object",
                    "required": ["id", "level", "bonus", "points", "cost"],
                    "properties": {
                        "id": id,
                        "level": level,
                        "bonus": color,
                        "points": {"type": "integer", "minimum": 0, "maximum": 5},
                        "cost": gems
                    }
                }
            ]
        })
    }
}

impl JsonSchema for NobleInfo {
    fn schema_name() -> Cow<'static, str> {
        "NobleInfo".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let id = generator.subschema_for::<NobleId>();
        let gems = generator.subschema_for::<GemCounts>();
        json_schema!({
            "description": "A noble tile (R1.3): its object, or its bare id (0 to 9) in a lean state.",
            "anyOf": [
                id,
                {
                    "type": "object",
                    "required": ["id", "points", "requires"],
                    "properties": {
                        "id": id,
                        "points": {"type": "integer", "minimum": 0},
                        "requires": gems
                    }
                }
            ]
        })
    }
}

/// The protocol's JSON Schema (draft 2020-12): the root is a server
/// message; `$defs/ClientFrame` is a client message.
pub fn protocol_schema() -> serde_json::Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    generator.subschema_for::<ClientFrame>();
    let mut root = generator.into_root_schema_for::<ServerMessage>();
    root.insert(
        "title".into(),
        "Splendor server protocol (docs/PROTOCOL.md)".into(),
    );
    root.insert(
        "description".into(),
        "The root validates every frame the server sends; $defs/ClientFrame validates a frame a client sends. Generated from the Rust types of splendor-protocol: do not edit by hand.".into(),
    );
    let mut value = root.to_value();
    as_strict_as_the_server(&mut value);
    value
}

/// What the types alone do not say and the server checks when it reads a
/// frame (issue 24: the schema refuses what the server refuses): the id
/// ranges of cards (0 to 89), nobles (0 to 9) and levels (1 to 3); a
/// `take` of up to three distinct colours; `hello`'s `liveness_s` (1 to 60),
/// `lang` (en, nl, fr, de, any case, a region after it), and `challenges`
/// only with `bot`; and `error.code` as the list of every code.
fn as_strict_as_the_server(schema: &mut serde_json::Value) {
    use serde_json::json;
    let defs = &mut schema["$defs"];
    let bounded = |description: &serde_json::Value, min: usize, max: usize| {
        json!({
            "description": description,
            "type": "integer",
            "minimum": min,
            "maximum": max,
        })
    };
    for (name, min, max) in [
        ("CardId", 0, splendor_rules::all_cards().len() - 1),
        ("NobleId", 0, splendor_rules::all_nobles().len() - 1),
        ("Level", 1, 3),
    ] {
        let description = defs[name]["description"].clone();
        defs[name] = bounded(&description, min, max);
    }
    if let Some(take) = defs["WireAction"]["oneOf"]
        .as_array_mut()
        .and_then(|shapes| {
            shapes
                .iter_mut()
                .find(|shape| shape["required"] == json!(["take"]))
        })
    {
        let items = &mut take["properties"]["take"];
        items["uniqueItems"] = json!(true);
        items["maxItems"] = json!(3);
    }
    // Every message is read strictly: a field it does not have is refused.
    defs["ClientFrame"]["unevaluatedProperties"] = json!(false);
    defs["RequestId"]["anyOf"][1]["maxLength"] = json!(crate::ids::MAX_REQUEST_ID_LEN);
    let mut codes: Vec<&str> = crate::ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    codes.extend(splendor_rules::REFUSAL_CODES);
    defs["ErrorInfo"]["properties"]["code"]["enum"] = json!(codes);
    if let Some(hello) = defs["ClientFrame"]["oneOf"]
        .as_array_mut()
        .and_then(|frames| {
            frames
                .iter_mut()
                .find(|frame| frame["properties"]["type"]["const"] == "hello")
        })
    {
        let properties = &mut hello["properties"];
        properties["liveness_s"]["minimum"] = json!(1);
        properties["liveness_s"]["maximum"] = json!(crate::MAX_LIVENESS_S);
        // What `Lang::parse` reads: the part before the first `-` or `_`.
        properties["lang"]["pattern"] =
            json!(r"^([eE][nN]|[nN][lL]|[fF][rR]|[dD][eE])([-_][\s\S]*)?$");
        properties["owner"]["minLength"] = json!(crate::client::OWNER_CHARS.start());
        properties["owner"]["maxLength"] = json!(crate::client::OWNER_CHARS.end());
        // `challenges` and `owner` are for programs only.
        let program = json!({"properties": {"bot": {"const": true}}, "required": ["bot"]});
        hello["allOf"] = json!([
            {
                "if": {"properties": {"challenges": {"const": true}}, "required": ["challenges"]},
                "then": program
            },
            {
                "if": {"properties": {"owner": {"type": "string"}}, "required": ["owner"]},
                "then": program
            }
        ]);
    }
    // `block`, `unblock` and `report` name a player exactly one way
    // (issue 22).
    if let Some(frames) = defs["ClientFrame"]["oneOf"].as_array_mut() {
        for frame in frames.iter_mut().filter(|frame| {
            ["block", "unblock", "report"]
                .iter()
                .any(|kind| frame["properties"]["type"]["const"] == *kind)
        }) {
            frame["oneOf"] = json!([
                {"required": ["player_id"]},
                {"required": ["seat"]},
                {"required": ["line"]}
            ]);
            let properties = &mut frame["properties"];
            properties["player_id"]["pattern"] = json!("^[0-9a-fA-F]{10}$");
            // Named, not null.
            properties["player_id"]["type"] = json!("string");
            properties["seat"]["type"] = json!("integer");
            properties["line"]["type"] = json!("integer");
            // Chat's rule: not only spaces.
            properties["reason"]["pattern"] = json!(r"\S");
            if frame["properties"]["type"]["const"] == "report" {
                frame["properties"]["reason"]["minLength"] = json!(1);
                frame["properties"]["reason"]["maxLength"] = json!(crate::social::MAX_REPORT_CHARS);
            } else if let Some(properties) = frame["properties"].as_object_mut() {
                properties.remove("reason");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed schema is the one the types give.
    #[test]
    fn the_committed_schema_is_up_to_date() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/protocol.schema.json"
        );
        let fresh = serde_json::to_string_pretty(&protocol_schema()).unwrap() + "\n";
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == fresh,
            "docs/protocol.schema.json is out of date: run UPDATE_SCHEMA=1 cargo test -p splendor-protocol schema"
        );
    }
}
