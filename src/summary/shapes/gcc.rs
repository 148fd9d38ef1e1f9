//! gcc / clang diagnostics: `file:line:col: error|warning|note|fatal error: message` lines
//! (the column is optional), counted per level, with error and warning counts per file; a
//! warning's `[-Wflag]` is its code.

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct Gcc {
    diagnostics: Diagnostics,
}

impl Shape for Gcc {
    fn line(&mut self, number: u64, text: &str) {
        let Some((file, location, level)) = parse(text) else {
            return;
        };
        let message = &text[location.len() + 2..];
        let code = message
            .strip_suffix(']')
            .and_then(|m| m.rsplit_once(" ["))
            .map(|(_, code)| code)
            .filter(|c| c.starts_with("-W"));
        self.diagnostics
            .add(number, level, Some(location), message, code);
        if level != Level::Note {
            self.diagnostics.files.add(file);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        (d.errors + d.warnings + d.notes > 0).then(|| {
            Fact::new(
                "gcc",
                vec![d.summary("gcc/clang", "errors and warnings by file")],
                d.json("gcc"),
            )
            .failures(d.failures(|_| 0))
            .hint("': (fatal )?error: |: warning: ' -A 3")
        })
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
    }
}

/// `src/a.c:49:13: error: …` → (`src/a.c`, `src/a.c:49:13`, error).
fn parse(text: &str) -> Option<(&str, &str, Level)> {
    let colon = memchr::memchr(b':', text.as_bytes())?;
    let file = &text[..colon];
    if file.is_empty() || file.contains(' ') {
        return None;
    }
    let mut end = colon;
    let mut numbers = 0;
    let bytes = text.as_bytes();
    // One or two `:digits` groups.
    while numbers < 2 {
        let start = end + 1;
        let digits = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || bytes.get(start + digits) != Some(&b':') {
            break;
        }
        end = start + digits;
        numbers += 1;
    }
    if numbers == 0 {
        return None;
    }
    let rest = text[end + 1..].strip_prefix(' ')?;
    let level = if rest.starts_with("error: ") || rest.starts_with("fatal error: ") {
        Level::Error
    } else if rest.starts_with("warning: ") {
        Level::Warning
    } else if rest.starts_with("note: ") {
        Level::Note
    } else {
        return None;
    };
    Some((file, &text[..end], level))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_locations() {
        assert_eq!(
            parse("src/a.c:49:13: error: x"),
            Some(("src/a.c", "src/a.c:49:13", Level::Error))
        );
        assert_eq!(
            parse("a.h:3: warning: y"),
            Some(("a.h", "a.h:3", Level::Warning))
        );
        assert_eq!(
            parse("a.c:1:2: fatal error: z.h: No such file"),
            Some(("a.c", "a.c:1:2", Level::Error))
        );
        assert_eq!(parse("src/ringbuf.c: In function ‘rb_write’:"), None);
        assert_eq!(parse("a.rs:12:    let x = 1; // error: no"), None);
        assert_eq!(parse("x:"), None);
    }
}
