//! Coverage reports: coverage.py's table (`Name  Stmts  Miss  Cover  Missing`, with `Branch
//! BrPart` under `--branch`), which pytest-cov prints too, and istanbul's text reporter (`File |
//! % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s`), which jest, vitest, nyc, c8 and
//! node-tap print. A coverage table is no failure, but its reader asks three things of it: the
//! total, the files least covered, and whether a required minimum failed (`FAIL Required test
//! coverage of 100% not reached`). The table's own rows are quoted as printed, under its
//! header: the numbers mean nothing without their columns.
//!
//! Of several tables (one per package), the last complete one is stated, and how many there
//! were.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde_json::{Value, json};

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// What istanbul's header and every line about a required minimum have, searched for in
/// every line (a searcher built once: `str::contains` builds one at each call).
static STMTS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"% Stmts"));
static OVERAGE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"overage"));

/// How many of the least covered files are quoted.
const LOWEST: usize = 1;
/// How much of a row or threshold line is kept.
const ROW_CHARS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tool {
    /// coverage.py: `Name Stmts Miss Cover`.
    Python,
    /// istanbul's text reporter: `File | % Stmts | …`.
    Istanbul,
}

/// A row as printed, with its line and coverage: its first percentage (coverage.py's
/// `Cover`, istanbul's `% Stmts`), and the lowest of its percentages.
#[derive(Debug, Clone)]
struct Row {
    line: u64,
    text: String,
    percent: f64,
    lowest: f64,
}

#[derive(Debug, Clone)]
struct Table {
    tool: Tool,
    /// Its header, as printed.
    header: String,
    files: u64,
    below: u64,
    total: Option<Row>,
    lowest: Vec<Row>,
}

impl Table {
    fn new(tool: Tool, text: &str) -> Table {
        Table {
            tool,
            header: row_text(text),
            files: 0,
            below: 0,
            total: None,
            lowest: Vec::new(),
        }
    }

    /// A file's row: counted, and kept while it is among the least covered (by its first
    /// percentage, then its lowest; ties keep the first printed).
    fn file(&mut self, row: Row) {
        self.files += 1;
        if row.lowest >= 100.0 {
            return;
        }
        self.below += 1;
        let at = self
            .lowest
            .partition_point(|r| (r.percent, r.lowest) <= (row.percent, row.lowest));
        if at < LOWEST {
            self.lowest.insert(at, row);
            self.lowest.truncate(LOWEST);
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Coverage {
    /// The table being read.
    reading: Option<Table>,
    /// The last table read to its end.
    last: Option<Table>,
    tables: u64,
    /// The lines saying a required minimum was not reached, the last of each measure (nyc's
    /// one per measure: lines, branches…; pytest-cov's closing one, the most exact, of the
    /// total): measure, line, text.
    thresholds: Vec<(String, u64, String)>,
}

/// Measures whose minimum not reached is told (istanbul has four).
const THRESHOLDS: usize = 8;

impl Shape for Coverage {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(table) = &mut self.reading {
            let read = match table.tool {
                Tool::Python => python_row(table, number, text),
                Tool::Istanbul => istanbul_row(table, number, text),
            };
            if read {
                return;
            }
            self.end_table();
        }
        let trimmed = text.trim_start();
        if trimmed.starts_with("Name ") && is_python_header(trimmed) {
            self.reading = Some(Table::new(Tool::Python, text));
        } else if STMTS.find(text.as_bytes()).is_some()
            && text.contains("% Lines")
            && text.contains('|')
        {
            self.reading = Some(Table::new(Tool::Istanbul, text));
        } else if is_threshold(text) {
            // `Coverage for lines (85.5%)`, `coverage threshold for lines (90%)`: its measure.
            let measure = text
                .split_once(" for ")
                .and_then(|(_, rest)| rest.split_once(" ("))
                .map_or("", |(measure, _)| measure);
            let said = (measure.to_owned(), number, cut(text.trim(), ROW_CHARS));
            match self.thresholds.iter().position(|(m, ..)| m == measure) {
                Some(at) => self.thresholds[at] = said,
                None if self.thresholds.len() < THRESHOLDS => self.thresholds.push(said),
                None => {}
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_table();
        let table = self.last?;
        let tool = match table.tool {
            Tool::Python => "coverage.py",
            Tool::Istanbul => "istanbul",
        };
        let mut line = format!(
            "coverage ({tool}): {}, {}",
            plural(table.files, "file", "files"),
            if table.below == 0 {
                "all at 100%".to_owned()
            } else {
                format!("{} below 100%", thousands(table.below))
            }
        );
        // istanbul's total is four figures, which its quoted row shows.
        if let Some(total) = table.total.as_ref().filter(|_| table.tool == Tool::Python) {
            line.push_str(&format!("; total {}%", percent_text(total.percent)));
        }
        if self.tables > 1 {
            line.push_str(&format!(" (the last of {} tables)", thousands(self.tables)));
        }
        if !self.thresholds.is_empty() {
            line.push_str("; required minimum not reached");
        }
        // A table of nothing but 100% says no more than its count.
        let mut quoted = Vec::new();
        if table.below > 0 || !self.thresholds.is_empty() {
            quoted.push(table.header.clone());
            quoted.extend(table.total.iter().map(|r| r.text.clone()));
            quoted.extend(table.lowest.iter().map(|r| r.text.clone()));
            quoted.extend(self.thresholds.iter().map(|(.., t)| t.clone()));
        }
        let row = |r: &Row| json!({"line": r.line, "text": r.text, "percent": r.percent, "lowest": r.lowest});
        let json = json!({
            "shape": "coverage",
            "tool": tool,
            "tables": self.tables,
            "files": table.files,
            "below_100": table.below,
            "total": table.total.as_ref().map_or(Value::Null, row),
            "lowest": table.lowest.iter().map(row).collect::<Vec<_>>(),
            "threshold": self
                .thresholds
                .last()
                .map_or(Value::Null, |(_, l, t)| json!({"line": l, "text": t})),
            "thresholds": self
                .thresholds
                .iter()
                .map(|(m, l, t)| json!({"measure": m, "line": l, "text": t}))
                .collect::<Vec<_>>(),
        });
        Some(
            Fact::new("coverage", vec![line], json)
                .quoting(quoted)
                .aside(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        let table = |t: &Table| {
            t.header.capacity()
                + t.total.as_ref().map_or(0, |r| r.text.capacity())
                + t.lowest.iter().map(|r| r.text.capacity()).sum::<usize>()
        };
        self.reading.as_ref().map_or(0, table)
            + self.last.as_ref().map_or(0, table)
            + self
                .thresholds
                .iter()
                .map(|(m, _, t)| m.capacity() + t.capacity())
                .sum::<usize>()
    }
}

impl Coverage {
    /// The table being read ends: it is the last one, when it had rows.
    fn end_table(&mut self) {
        if let Some(table) = self.reading.take()
            && (table.files > 0 || table.total.is_some())
        {
            self.tables += 1;
            self.last = Some(table);
        }
    }
}

/// `Name  Stmts  Miss  Cover` (and `Branch  BrPart`, `Missing`), as coverage.py heads its table.
fn is_python_header(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let plain = ["Name", "Stmts", "Miss", "Cover"];
    let branch = ["Name", "Stmts", "Miss", "Branch", "BrPart", "Cover"];
    [&plain[..], &branch[..]].iter().any(|head| {
        words.starts_with(head) && matches!(&words[head.len()..], [] | ["Missing"] | ["Contexts"])
    })
}

/// A line of coverage.py's table: a rule, a file's row or the total's. Whether it was one.
fn python_row(table: &mut Table, number: u64, text: &str) -> bool {
    let trimmed = text.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b == b'-') {
        return true;
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    // The name, then numbers, then the percentage.
    let Some(at) = words.iter().position(|w| w.ends_with('%')) else {
        return false;
    };
    let Some(percent) = words[at]
        .strip_suffix('%')
        .and_then(|p| p.parse::<f64>().ok())
    else {
        return false;
    };
    if at < 3 || !words[1..at].iter().all(|w| w.parse::<u64>().is_ok()) {
        return false;
    }
    let row = Row {
        line: number,
        text: row_text(text),
        percent,
        lowest: percent,
    };
    if words[0] == "TOTAL" {
        table.total = Some(row);
    } else {
        table.file(row);
    }
    true
}

/// A line of istanbul's table: a rule, the total (`All files`), a directory's row or a
/// file's. Whether it was one.
fn istanbul_row(table: &mut Table, number: u64, text: &str) -> bool {
    if !text.contains('|') {
        return false;
    }
    let cells: Vec<&str> = text.split('|').collect();
    if cells.iter().all(|c| c.trim().bytes().all(|b| b == b'-')) {
        return true;
    }
    let percents: Vec<f64> = cells[1..]
        .iter()
        .take(4)
        .filter_map(|c| c.trim().parse::<f64>().ok())
        .collect();
    let (Some(&percent), Some(lowest)) =
        (percents.first(), percents.iter().copied().reduce(f64::min))
    else {
        return false;
    };
    let row = Row {
        line: number,
        text: row_text(text),
        percent,
        lowest,
    };
    let name = cells[0];
    let indent = name.len() - name.trim_start().len();
    let name = name.trim();
    if name == "All files" {
        table.total = Some(row);
    } else if indent >= 2 || name.rsplit('/').next().is_some_and(|n| n.contains('.')) {
        // A file; a directory's row (one space in, no extension) sums its files.
        table.file(row);
    }
    true
}

/// A line saying a required minimum of coverage was not reached: pytest-cov's `FAIL Required
/// test coverage of 100% not reached.`, coverage.py's `Coverage failure: total of 99 is less
/// than fail-under=100`, jest's `coverage threshold for lines (90%) not met`, and nyc's, c8's
/// and vitest's `Coverage for lines (85.5%) does not meet global threshold (90%)`.
fn is_threshold(text: &str) -> bool {
    // Each says `coverage` or `Coverage`: one search leaves the other lines at that.
    if OVERAGE.find(text.as_bytes()).is_none() {
        return false;
    }
    (text.contains("Required test coverage of") && text.contains("not reached"))
        || text.contains("Coverage failure: total of")
        || (text.contains("coverage threshold for") && text.contains("not met"))
        || (text.contains("Coverage for ") && text.contains("does not meet"))
}

/// A row as printed, without its trailing blanks, cut to `ROW_CHARS`.
fn row_text(text: &str) -> String {
    cut(text.trim_end(), ROW_CHARS)
}

/// `91`, `99.83`: a percentage as a table prints it.
fn percent_text(p: f64) -> String {
    let text = format!("{p:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}
