//! gcc / clang diagnostics: `file:line:col: error|warning|note|fatal error: message` lines
//! (the column is optional), counted per level, with error and warning counts per file; a
//! warning's `[-Wflag]` is its code, and clang-tidy's check (`[cert-err33-c,-warnings-as-errors]`)
//! the code of its errors and warnings alike. javac writes the same lines without a column
//! (`X.java:65: error: cannot find symbol`), a warning's code first (`warning: [rawtypes] …`),
//! the symbol it could not find under the source line (`  symbol:   class StringBuildr`), and
//! its own counts last (`3 errors`, `only showing the first 100 warnings, of 106 total`), which
//! are exact where the lines it showed are not. A tool that runs the compiler may indent its
//! lines (pip building a wheel): they are read the same.

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct Gcc {
    diagnostics: Diagnostics,
    /// gcc's `file:16:3:   required from here` before the next error: where the template
    /// instantiation that failed was asked for, in the code being compiled.
    required_from: Option<String>,
    /// clang's notes after an error (`note: in instantiation of … requested here`): the first
    /// in the project's own files was taken as the error's cause; the latest is its origin.
    cause_taken: bool,
    requested_at: Option<String>,
    /// Diagnostics in `.java` files: javac's.
    java: u64,
    /// javac's own counts of errors and warnings, summed over its runs.
    stated: [u64; 2],
    /// The file of the last error or warning.
    last_file: String,
    /// Diagnostics of ShellCheck's codes (`[SC2086]`: its `-f gcc` format).
    shellcheck: u64,
}

impl Shape for Gcc {
    fn line(&mut self, number: u64, text: &str) {
        // A compiler run by another tool may be indented (pip's `      bitarray/x.h:64:49:
        // error: …` under `Building wheel`).
        let text = match text.trim_start() {
            // Not the code under a diagnostic (`   64 |   x`, `      |   ^~~`).
            t if t.len() < text.len()
                && !t.starts_with(|c: char| c.is_ascii_digit() || c == '|')
                && parse(t).is_some() =>
            {
                t
            }
            _ => text,
        };
        let Some((file, location, level)) = parse(text) else {
            if text.starts_with("fatal error: ") && !self.last_file.is_empty() {
                // clang's `fatal error: too many errors emitted, stopping now`: its last error
                // (of the `20 errors generated.` it states), in the file it was compiling.
                self.end_error();
                self.diagnostics
                    .add(number, Level::Error, Some(&self.last_file), text, None);
                self.diagnostics.files.add(&self.last_file);
            } else if self.java > 0 {
                self.javac_line(text);
            } else if text.ends_with(":   required from here") {
                self.required_from = Some(text.trim().to_owned());
            }
            return;
        };
        // Go's tools never write a level after the place: a Go file's `warning:` is a test's
        // log line (testify's `suite.go:207: warning: no tests to run`). Ruby's are the
        // interpreter's own, about the code it loaded (`x_spec.rb:4: warning: method redefined`).
        if file.ends_with(".go") || file.ends_with(".rb") {
            return;
        }
        let message = &text[location.len() + 2..];
        if level == Level::Note {
            if message.ends_with(" requested here") && !is_system(file) {
                if self.cause_taken {
                    self.requested_at = Some(text.to_owned());
                } else {
                    self.cause_taken = true;
                    self.diagnostics.add_detail(text);
                }
            }
        } else {
            self.end_error();
        }
        let java = file.ends_with(".java");
        let code = if java {
            message
                .strip_prefix("warning: [")
                .and_then(|m| m.split_once(']'))
                .map(|(code, _)| code)
        } else {
            message
                .strip_suffix(']')
                .and_then(|m| m.rsplit_once(" ["))
                .and_then(|(_, code)| check_code(code))
        };
        if code.is_some_and(is_shellcheck_code) {
            // ShellCheck's: a finding of its rule whatever its level (its style findings are
            // notes).
            self.shellcheck += 1;
            self.diagnostics.as_rules();
        }
        self.diagnostics
            .add(number, level, Some(location), message, code);
        if level != Level::Note {
            self.diagnostics.files.add(file);
            self.last_file.clear();
            self.last_file.push_str(file);
            self.java += u64::from(java);
            if let Some(from) = self.required_from.take().filter(|_| level == Level::Error) {
                self.diagnostics.add_detail(&from);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_error();
        let javac = self.java * 2 > self.diagnostics.errors + self.diagnostics.warnings;
        let [errors, warnings] = self.stated;
        let d = &mut self.diagnostics;
        if javac {
            d.errors = d.errors.max(errors);
            d.warnings = d.warnings.max(warnings);
        }
        let d = &self.diagnostics;
        let tool = if javac {
            "javac"
        } else if self.shellcheck * 2 > d.errors + d.warnings + d.notes {
            "shellcheck"
        } else {
            "gcc/clang"
        };
        (d.errors + d.warnings + d.notes > 0).then(|| {
            Fact::new(
                "gcc",
                vec![d.summary(tool, "errors and warnings by file")],
                d.json("gcc"),
            )
            .failures(d.failures(|_| 0))
            .hint("': (fatal )?error: |: warning: ' -A 3")
        })
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.required_from.as_ref().map_or(0, String::capacity)
            + self.requested_at.as_ref().map_or(0, String::capacity)
    }
}

impl Gcc {
    /// The error before is complete: the origin of its instantiation (clang) joins it.
    fn end_error(&mut self) {
        self.cause_taken = false;
        if let Some(at) = self.requested_at.take() {
            self.diagnostics.add_detail(&at);
        }
    }

    /// A line of javac's between or after its diagnostics: the symbol or types of an error
    /// (`  symbol:   class X`, `  location: class Y`, `  required: int`, `  found: String`)
    /// and its counts.
    fn javac_line(&mut self, text: &str) {
        if let Some(detail) = text.strip_prefix("  ")
            && ["symbol:", "location:", "required:", "found:", "reason:"]
                .iter()
                .any(|p| detail.starts_with(p))
        {
            self.diagnostics.add_detail(detail);
        } else if let Some((n, which)) = text.split_once(' ')
            && let Ok(n) = n.parse::<u64>()
        {
            match which {
                "error" | "errors" => self.stated[0] = self.stated[0].saturating_add(n),
                "warning" | "warnings" => self.stated[1] = self.stated[1].saturating_add(n),
                _ => {}
            }
        } else if let Some(rest) = text.strip_prefix("only showing the first ") {
            // `only showing the first 100 warnings, of 106 total; use -Xmaxwarns …`: the 100
            // were stated just before.
            let words: Vec<&str> = rest.split([' ', ',', ';']).collect();
            if let [shown, which, "", "of", total, "total", ..] = words[..]
                && let (Ok(shown), Ok(total)) = (shown.parse::<u64>(), total.parse::<u64>())
            {
                let slot = usize::from(which.starts_with("warning"));
                self.stated[slot] += total.saturating_sub(shown);
            }
        }
    }
}

/// The code in a diagnostic's closing brackets: gcc's and clang's `-Wflag` (`-Werror=flag`),
/// clang-tidy's check, the first of its list (`bugprone-sizeof-expression,-warnings-as-errors`,
/// `clang-analyzer-unix.Malloc`), or the static analyzer's checker (scan-build's
/// `core.NullDereference`, `deadcode.DeadStores`).
fn check_code(brackets: &str) -> Option<&str> {
    if brackets.starts_with("-W") || is_analyzer_checker(brackets) || is_shellcheck_code(brackets) {
        return Some(brackets);
    }
    let check = brackets.split(',').next()?;
    let (group, rest) = check.split_once('-')?;
    let named = |s: &str, extra: &[u8]| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || extra.contains(&b))
    };
    (named(group, b"") && group.bytes().all(|b| b.is_ascii_lowercase()) && named(rest, b"._"))
        .then_some(check)
}

/// ShellCheck's codes: `SC2086`.
fn is_shellcheck_code(code: &str) -> bool {
    code.len() == 6 && code.starts_with("SC") && code[2..].bytes().all(|b| b.is_ascii_digit())
}

/// The packages of the clang static analyzer's checkers.
const ANALYZER_PACKAGES: [&str; 14] = [
    "alpha",
    "apiModeling",
    "core",
    "cplusplus",
    "deadcode",
    "debug",
    "fuchsia",
    "nullability",
    "optin",
    "osx",
    "security",
    "unix",
    "valist",
    "webkit",
];

/// `core.NullDereference`, `security.insecureAPI.strcpy`: a checker's package and name.
fn is_analyzer_checker(brackets: &str) -> bool {
    brackets.split_once('.').is_some_and(|(package, rest)| {
        ANALYZER_PACKAGES.contains(&package)
            && rest
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
    })
}

/// A file of the system's headers (`/usr/include/c++/12/ostream`), not the project's.
fn is_system(file: &str) -> bool {
    file.starts_with("/usr/") || file.contains("/include/c++/")
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

    #[test]
    fn codes_are_warning_flags_or_tidy_checks() {
        assert_eq!(check_code("-Wunused-variable"), Some("-Wunused-variable"));
        assert_eq!(
            check_code("cert-err33-c,-warnings-as-errors"),
            Some("cert-err33-c")
        );
        assert_eq!(
            check_code("clang-analyzer-unix.Malloc"),
            Some("clang-analyzer-unix.Malloc")
        );
        // Brackets that end a message without naming a check.
        assert_eq!(
            check_code("core.NullDereference"),
            Some("core.NullDereference")
        );
        assert_eq!(
            check_code("security.insecureAPI.strcpy"),
            Some("security.insecureAPI.strcpy")
        );
        assert_eq!(check_code("std.io"), None);
        assert_eq!(check_code("with T = int"), None);
        assert_eq!(check_code("enabled by default"), None);
        assert_eq!(check_code("8"), None);
        assert_eq!(check_code("Foo-bar"), None);
    }
}
