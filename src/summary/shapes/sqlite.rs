//! The sqlite3 shell running a script: it goes on after each error, so its errors are lines
//! among the results (`Parse error near line 12: no such column: InvoiceDt`, `Runtime error
//! near line 66: FOREIGN KEY constraint failed (19)`; before 3.41, `Error: near line 12: …`),
//! a parse error with the statement around where it stopped and `error here ---^` under it.
//! Each error is listed as printed with that statement line. Nothing else says the script
//! failed: sqlite3 exits 1 whatever the number of errors.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct Sqlite {
    failures: Failures,
    parse: u64,
    runtime: u64,
    /// Errors of shells that do not say which (`Error: near line 3: …`).
    unsaid: u64,
    /// The line after a parse error: the statement where it stopped, kept if the caret follows.
    statement: Option<Option<String>>,
}

impl Shape for Sqlite {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(pending) = self.statement.take() {
            match pending {
                // The statement, when `error here ---^` comes under it.
                None if error_line(text).is_none() => {
                    self.statement = Some(Some(text.trim().to_owned()));
                    return;
                }
                Some(statement) if text.trim_start().starts_with("error here ---^") => {
                    if let Some(f) = self.failures.current() {
                        f.add_detail(&statement);
                    }
                    return;
                }
                _ => {}
            }
        }
        let Some(kind) = error_line(text) else {
            return;
        };
        match kind {
            Kind::Parse => self.parse += 1,
            Kind::Runtime => self.runtime += 1,
            Kind::Unsaid => self.unsaid += 1,
        }
        // As sqlite said it: the line of the script it is near, and what.
        self.failures.push(number, text.trim_end());
        if kind != Kind::Runtime {
            self.statement = Some(None);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let errors = self.parse + self.runtime + self.unsaid;
        if errors == 0 {
            return None;
        }
        let mut line = format!("sqlite3: {}", plural(errors, "error", "errors"));
        if self.unsaid == 0 && self.parse > 0 && self.runtime > 0 {
            line.push_str(&format!(
                " ({} parse, {} runtime)",
                self.parse, self.runtime
            ));
        }
        let json = json!({
            "shape": "sqlite3",
            "errors": errors,
            "parse": self.parse,
            "runtime": self.runtime,
            "unsaid": self.unsaid,
        });
        Some(
            Fact::new("sqlite3", vec![line], json)
                .failures(self.failures.take_as("errors"))
                .hint("'^(Parse error|Runtime error|Error): ' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self
                .statement
                .as_ref()
                .and_then(|s| s.as_ref())
                .map_or(0, String::capacity)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Parse,
    Runtime,
    Unsaid,
}

/// `Parse error near line 12: no such column: InvoiceDt` (sqlite 3.41 and later), `Error: near
/// line 12: no such column: InvoiceDt` (before), `Runtime error near line 66: …`: its kind.
fn error_line(text: &str) -> Option<Kind> {
    let (kind, rest) = if let Some(rest) = text.strip_prefix("Parse error ") {
        (Kind::Parse, rest)
    } else if let Some(rest) = text.strip_prefix("Runtime error ") {
        (Kind::Runtime, rest)
    } else {
        (Kind::Unsaid, text.strip_prefix("Error: ")?)
    };
    let (line, message) = rest.strip_prefix("near line ")?.split_once(": ")?;
    (line.bytes().all(|b| b.is_ascii_digit()) && !line.is_empty() && !message.is_empty())
        .then_some(kind)
}

#[cfg(test)]
mod tests {
    use super::{Kind, error_line};

    #[test]
    fn error_lines_of_old_and_new_shells() {
        assert_eq!(
            error_line("Parse error near line 12: no such column: InvoiceDt"),
            Some(Kind::Parse)
        );
        assert_eq!(
            error_line("Runtime error near line 66: FOREIGN KEY constraint failed (19)"),
            Some(Kind::Runtime)
        );
        assert_eq!(
            error_line("Error: near line 3: no such table: t"),
            Some(Kind::Unsaid)
        );
        assert_eq!(error_line("Error: something else"), None);
        assert_eq!(error_line("Parse error near line x: y"), None);
    }
}
