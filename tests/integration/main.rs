//! ctxoff's integration tests: one binary, one module per area, each run of ctxoff in its own
//! temporary scratch root, session and config.

mod config;
mod corpus_truth;
mod dispatch;
mod gc;
mod generated;
mod hardening;
mod progress;
mod reliability;
mod retrieval;
mod run;
mod scratch;
mod stats;
mod summary;
mod support;
