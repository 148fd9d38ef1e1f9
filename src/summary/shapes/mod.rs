//! One summariser per recognised output shape. Each reads the display-cleaned lines (JSON reads
//! the raw bytes), counts what it recognises, and states facts only about a shape it recognised.

mod diagnostics;
mod gcc;
mod gotest;
mod grep;
mod jest;
mod json;
mod libtest;
pub(crate) mod names;
mod pytest;
mod rustc;
mod tsc;
mod vitest;

pub(crate) use gcc::Gcc;
pub(crate) use gotest::GoTest;
pub(crate) use grep::Grep;
pub(crate) use jest::Jest;
pub(crate) use json::JsonScan;
pub(crate) use libtest::Libtest;
pub(crate) use pytest::Pytest;
pub(crate) use rustc::Rustc;
pub(crate) use tsc::Tsc;
pub(crate) use vitest::Vitest;
