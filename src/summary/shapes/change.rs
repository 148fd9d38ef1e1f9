//! The first change of a diff a test runner prints under a failed comparison (node-tap's
//! `diff: |`, chai's `+ expected - actual`): its removed and added lines, each side joined,
//! which say how the values differ where the whole values are too long to show.

/// How much of a change's removed or added lines is kept.
const CHANGE_CHARS: usize = 160;

/// The first change of a diff, read line by line.
#[derive(Debug, Default)]
pub(crate) struct Change {
    /// The column of the diff's `-` and `+` signs: given, or the indentation of its first
    /// line (a line alike is indented one more).
    column: Option<usize>,
    removed: String,
    added: String,
    /// What separated the sign from the first line's text (`- "a"`, `+&amp;`), kept.
    space: [bool; 2],
    /// Its lines are read; the rest of the diff is not.
    done: bool,
}

impl Change {
    /// A diff whose signs are at `column` (chai's are under its legend, `+ expected -
    /// actual`; its first line may be a line alike, indented further).
    pub(crate) fn at(column: usize) -> Change {
        Change {
            column: Some(column),
            ..Change::default()
        }
    }

    /// A line of the diff, indented `indent`, without its indentation; its headers (`---
    /// expected`, `+++ actual`, `@@ -43,22 +43,22 @@`) and blank lines passed over.
    pub(crate) fn line(&mut self, indent: usize, t: &str) {
        if self.done || t.is_empty() {
            return;
        }
        let column = *self.column.get_or_insert(indent);
        if t.starts_with("--- ") || t.starts_with("+++ ") || t.starts_with("@@") {
            return;
        }
        let (side, space) = match t.chars().next() {
            Some('-') if indent == column => (&mut self.removed, &mut self.space[0]),
            Some('+') if indent == column => (&mut self.added, &mut self.space[1]),
            // A line alike after the change ends it.
            _ => {
                self.done = !(self.removed.is_empty() && self.added.is_empty());
                return;
            }
        };
        let line = t[1..].trim();
        if side.len() < CHANGE_CHARS && !line.is_empty() {
            if side.is_empty() {
                *space = t[1..].starts_with(char::is_whitespace);
            } else {
                side.push(' ');
            }
            side.push_str(line);
        }
    }

    /// Whether the first change is over (a line alike came after it).
    pub(crate) fn is_read(&self) -> bool {
        self.done
    }

    /// `- "email": "<<a@b>",` and `+ "email": "<a@b>",`, as the diff has them (a run of
    /// blanks after the sign shown as one).
    pub(crate) fn details(&self) -> impl Iterator<Item = String> {
        [
            ('-', &self.removed, self.space[0]),
            ('+', &self.added, self.space[1]),
        ]
        .into_iter()
        .filter(|(_, side, _)| !side.is_empty())
        .map(|(sign, side, space)| {
            let space = if space { " " } else { "" };
            format!("{sign}{space}{}", crate::format::cut(side, CHANGE_CHARS))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Change;

    fn read(lines: &[&str]) -> Vec<String> {
        let mut change = Change::default();
        for l in lines {
            let t = l.trim_start();
            change.line(l.len() - t.len(), t);
        }
        change.details().collect()
    }

    #[test]
    fn the_first_change_with_its_lines_alike_passed_over() {
        // A line alike that begins with a sign is indented past the signs' column.
        let diff = [
            "  --- expected",
            "  +++ actual",
            "  @@ -1,4 +1,4 @@",
            "     -5",
            "  -  \"a\",",
            "  -  \"b\",",
            "",
            "  +  \"c\",",
            "     -7",
            "  -  \"d\",",
        ];
        assert_eq!(read(&diff), ["- \"a\", \"b\",", "+ \"c\","]);
        assert!(read(&["  --- expected", "     same"]).is_empty());
        // No blank after the sign, none shown.
        assert_eq!(
            read(&[
                "--- expected HTML",
                "+++ actual HTML",
                " <p>",
                "-¾ ℋ",
                "+&amp;frac34; ℋ"
            ]),
            ["-¾ ℋ", "+&amp;frac34; ℋ"]
        );
        let mut chai = Change::at(6);
        for l in [
            "           \"5-2\"",
            "      -    \"9\"",
            "      +    9",
            "           ]",
        ] {
            let t = l.trim_start();
            chai.line(l.len() - t.len(), t);
        }
        assert_eq!(chai.details().collect::<Vec<_>>(), ["- \"9\"", "+ 9"]);
    }
}
