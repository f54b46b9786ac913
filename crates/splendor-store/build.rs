//! `sqlx::migrate!` embeds the migration files at compile time; this tells
//! Cargo to rebuild the crate when one of them changes.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
