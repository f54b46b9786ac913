# syntax=docker/dockerfile:1
# Splendor server image: build in the Rust image, run in a slim Debian image
# as a non-root user. SQLite data lives in the /data volume.
#
# docker/check.sh (run by CI) keeps this file honest without a Docker engine:
# it builds with the exact `cargo build` command below, checks every COPY
# source exists and the cache mounts are there, and starts the release binary
# with the ENV and CMD below.

FROM rust:1.95-slim-bookworm AS build
# OpenSSL's headers: webauthn-rs (passkeys, issue 23) links OpenSSL.
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The workspace: manifests, lock file, crates, migrations (embedded at compile
# time) and the root package's tiny library (the workspace root is a package).
COPY Cargo.toml Cargo.lock ./
COPY crates ./crates
COPY migrations ./migrations
COPY tests/support ./tests/support
# The rules the server serves at /rules.md (embedded at compile time).
COPY docs/RULES.md ./docs/RULES.md
# The crate registry and the build directory live in BuildKit cache mounts
# that outlast the build: after a source change only our own crates are
# compiled again, not every dependency (about 7 minutes saved on 2 cores).
# The binary is copied out of the mount, which the next stage cannot see.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p splendor-server --bin splendor-server \
 && cp target/release/splendor-server /usr/local/bin/splendor-server

FROM debian:bookworm-slim AS runtime
# ca-certificates: for TLS to a managed PostgreSQL; libssl3: OpenSSL for
# the passkeys' checks (webauthn-rs).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libssl3 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home splendor \
 && mkdir -p /data \
 && chown splendor:splendor /data
COPY --from=build /usr/local/bin/splendor-server /usr/local/bin/splendor-server
USER splendor:splendor
ENV SPLENDOR_LISTEN=0.0.0.0:8080 \
    SPLENDOR_DATA_DIR=/data \
    SPLENDOR_LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["splendor-server", "healthcheck"]
CMD ["splendor-server"]
