//! ctxoff's integration tests: one binary, one module per area, each run of ctxoff in its own
//! temporary scratch root, session and config.

mod gc;
mod run;
mod scratch;
mod support;
