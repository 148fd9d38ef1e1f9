//! `ctxoff stats`: what offloading saved, and how often summaries were not enough, from the
//! history (`crate::history`): exact figures in total, by command, by output shape and by day.

use anyhow::{Context as _, Result, anyhow, bail};
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use super::{Context, Run};
use crate::format::{plural, thousands};
use crate::history::{self, Counts, Day, Figures, History, KEEP_DAYS, Scope};

/// `ctxoff stats`'s arguments.
#[derive(Debug)]
pub struct StatsArgs {
    pub since: Option<String>,
    pub json: bool,
    /// The session `--session` named on the command line, set by `cli::parse`: stats covers
    /// every session unless told otherwise, so `CTXOFF_SESSION` alone does not narrow it.
    pub session: Option<String>,
}

const LONG_ABOUT: &str = "\
Show what offloading saved, exactly

Adds up the history ctxoff keeps of every offload and every read-back (history.jsonl in the
platform data directory, e.g. ~/.local/share/ctxoff; gc never touches it): offloads, the tokens
of their outputs, of the summaries printed instead, and of what `grep` and `lines` printed of
them afterwards (read-back); the tokens kept out of context (output - summary - read-back); and
the read-back rate (offloads read back at least once). In total, by command and by output
shape, the most read-back shapes first: those are the summaries to improve.

Every figure is a sum of real token counts. Output that passes through is not recorded: it
saves nothing. Reads of a saved file through other tools (an agent's own file reader) are not
seen, so the tokens kept out of context are an upper bound in that respect.

An offload counts on the day (local time) its summary was printed, with every read-back of it.
On a terminal, a bar chart shows the days. Records older than 14 days whose output gc has
removed are folded into exact daily totals without sessions, so --session covers the last 14
days. Exit status 0, or 2 when the history cannot be read or --since is bad.

Examples:
  ctxoff stats
  ctxoff stats --since 7d            # today and the 6 days before
  ctxoff stats --session claude-4821
  ctxoff stats --since 2025-11-01 --json | jq .totals";

/// Days the chart shows at most.
const CHART_DAYS: i64 = 30;
/// Width of the chart's longest bar.
const BAR: u64 = 40;

impl StatsArgs {
    pub(crate) fn command() -> Command {
        Command::new("stats")
            .about("Show what offloading saved: tokens kept out of context, read-back rate")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("since").long("since").value_name("WHEN").help(
                    "Count from this day on: 7d (today and the 6 days before), 2w, or a date \
                         (2025-11-30) [default: all]",
                ),
                Arg::new("json")
                    .long("json")
                    .help("Print one JSON object with every figure")
                    .action(ArgAction::SetTrue),
            ])
    }

    /// The arguments in `matches`; `session` is left for `cli::parse` to set.
    pub(crate) fn from_matches(matches: &ArgMatches) -> StatsArgs {
        StatsArgs {
            since: matches.get_one("since").cloned(),
            json: matches.get_flag("json"),
            session: None,
        }
    }
}

impl Run for StatsArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let today = Day::today();
        let since = self
            .since
            .as_deref()
            .map(|text| parse_since(text, today))
            .transpose()?;
        let scope = Scope {
            since,
            session: self.session.clone(),
            encoding: ctx.settings()?.encoding.name().to_string(),
        };
        let dir = ctx
            .history()
            .map(Path::to_path_buf)
            .ok_or_else(|| anyhow!("no history: the platform data directory is unknown"))?;
        let history = History::open(&dir, false)
            .map_err(|why| anyhow!("history not used, so nothing is being recorded: {why}"))?;
        let text = match &history {
            Some(history) => history
                .read()
                .with_context(|| format!("cannot read {}", history.path().display()))?,
            None => String::new(),
        };
        let (records, unreadable) = history::records(&text);
        if let (Some(first), Some(history)) = (unreadable.first(), &history) {
            writeln!(
                ctx.err,
                "ctxoff: warning: skipped {} of {} (corrupt, or of another version; the first is line {first})",
                plural(
                    unreadable.len() as u64,
                    "unreadable line",
                    "unreadable lines"
                ),
                history.path().display()
            )?;
        }
        let figures = Figures::of(&records, &scope);
        if self.json {
            let path = history.as_ref().map(History::path);
            let json = to_json(&figures, &scope, path.as_deref(), unreadable.len());
            writeln!(ctx.out, "{json:#}")?;
        } else {
            let chart = std::io::stdout().is_terminal();
            ctx.out
                .write_all(render(&figures, &scope, today, chart).as_bytes())?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// `7d` (today and the 6 days before), `2w`, or a date.
fn parse_since(text: &str, today: Day) -> Result<Day> {
    if let Some(day) = Day::parse(text) {
        return Ok(day);
    }
    let number = |digits: &str| -> Option<i64> {
        let ok = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| digits.parse::<u32>().ok())
            .flatten()
            .map(i64::from)
    };
    let days = match (text.strip_suffix('d'), text.strip_suffix('w')) {
        (Some(n), _) => number(n),
        (_, Some(n)) => number(n).map(|n| n * 7),
        _ => None,
    };
    match days {
        Some(0) => bail!("bad --since '{text}': 1d is today, the shortest period"),
        Some(days) => Ok(today.minus(days - 1)),
        None => bail!(
            "bad --since '{}': expected days (7d), weeks (2w) or a date (2025-11-30); figures are kept per day",
            text.escape_debug()
        ),
    }
}

/// A signed count with thousands separators.
fn signed(n: i128) -> String {
    let magnitude = thousands(u64::try_from(n.unsigned_abs()).unwrap_or(u64::MAX));
    if n < 0 {
        format!("-{magnitude}")
    } else {
        magnitude
    }
}

/// `part` as a percentage of `whole`, to one decimal.
fn percent(part: i128, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

fn shapes_name(shapes: &[String]) -> String {
    if shapes.is_empty() {
        "(not recognised)".to_string()
    } else {
        shapes.join(" + ")
    }
}

fn scope_line(scope: &Scope, today: Day) -> String {
    let period = match scope.since {
        None => "all days".to_string(),
        Some(since) if since == today => format!("today ({today})"),
        Some(since) => format!("last {} days ({since} to {today})", today.since(since) + 1),
    };
    let sessions = match &scope.session {
        Some(session) => format!("session {session}"),
        None => "all sessions".to_string(),
    };
    format!("{period} · {sessions} · {} tokens", scope.encoding)
}

/// The report for a person: totals, tables by command and by shape, notes on what was left
/// out, and with `chart` a bar per day.
fn render(figures: &Figures, scope: &Scope, today: Day, chart: bool) -> String {
    let mut out = format!("ctxoff stats · {}\n", scope_line(scope, today));
    let total = &figures.total;
    if total.offloads == 0 {
        out.push_str("\nno offloads recorded");
        out.push_str(" (output that passes through is not recorded: it saves nothing)\n");
    } else {
        let rows = [
            ("offloads", thousands(total.offloads), String::new()),
            (
                "output tokens",
                thousands(total.output_tokens),
                String::new(),
            ),
            (
                "summary tokens",
                thousands(total.summary_tokens),
                format!(
                    "{} of output",
                    percent(total.summary_tokens.into(), total.output_tokens)
                ),
            ),
            (
                "read-back tokens",
                thousands(total.read_back_tokens),
                format!(
                    "{}, {} of output",
                    plural(total.read_backs, "read-back", "read-backs"),
                    percent(total.read_back_tokens.into(), total.output_tokens)
                ),
            ),
            (
                "kept out of context",
                signed(total.kept()),
                format!("{} of output", percent(total.kept(), total.output_tokens)),
            ),
            (
                "read-back rate",
                percent(total.offloads_read_back.into(), total.offloads),
                format!(
                    "{} of {} read back",
                    thousands(total.offloads_read_back),
                    plural(total.offloads, "offload", "offloads")
                ),
            ),
        ];
        let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
        out.push('\n');
        for (name, value, note) in rows {
            let line = format!("{name:<20} {value:>width$}   {note}");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str("\nby command\n");
        out.push_str(&table(
            "command",
            figures.by_command.iter().map(|(c, n)| (c.clone(), n)),
        ));
        out.push_str("\nby output shape, most read back first\n");
        out.push_str(&table(
            "shape",
            figures.by_shapes.iter().map(|(s, n)| (shapes_name(s), n)),
        ));
    }
    let unmatched = &figures.unmatched;
    if unmatched.read_backs > 0 {
        out.push_str(&format!(
            "\nnot counted above: {} ({}) of outputs whose offload was not recorded\n",
            plural(unmatched.read_backs, "read-back", "read-backs"),
            plural(unmatched.read_back_tokens, "token", "tokens"),
        ));
    }
    for (encoding, offloads) in &figures.other_encodings {
        out.push_str(&format!(
            "\nnot counted above: {} counted in {encoding} (see them with --encoding {encoding})\n",
            plural(*offloads, "offload", "offloads"),
        ));
    }
    if figures.folded_left_out > 0 {
        out.push_str(&format!(
            "\nnot counted above: records older than {KEEP_DAYS} days, folded into daily totals without sessions\n"
        ));
    }
    if chart && total.offloads > 0 {
        out.push('\n');
        out.push_str(&bar_chart(figures, scope, today));
    }
    out
}

/// Columns of figures, one row per name.
fn table<'a>(title: &str, rows: impl Iterator<Item = (String, &'a Counts)>) -> String {
    let header = [
        title,
        "offloads",
        "output",
        "summary",
        "read-back",
        "kept",
        "read back",
    ];
    let mut cells: Vec<[String; 7]> = vec![header.map(str::to_string)];
    for (name, counts) in rows {
        cells.push([
            name,
            thousands(counts.offloads),
            thousands(counts.output_tokens),
            thousands(counts.summary_tokens),
            thousands(counts.read_back_tokens),
            signed(counts.kept()),
            format!(
                "{} ({})",
                thousands(counts.offloads_read_back),
                percent(counts.offloads_read_back.into(), counts.offloads)
            ),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &cells {
        let mut line = format!("  {:<w$}", row[0], w = widths[0]);
        for (cell, width) in row.iter().zip(&widths).skip(1) {
            line.push_str(&format!("  {cell:>width$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One bar per day, from the first day with an offload (at most [`CHART_DAYS`] ago) to today:
/// its length is the day's output tokens, `█` the part kept out of context, `░` what the
/// summaries and read-backs put in.
fn bar_chart(figures: &Figures, scope: &Scope, today: Day) -> String {
    let Some(&(first, _)) = figures.by_day.first() else {
        return String::new();
    };
    let start = scope
        .since
        .unwrap_or(first)
        .max(today.minus(CHART_DAYS - 1))
        .min(today);
    let max = figures
        .by_day
        .iter()
        .filter(|(day, _)| *day >= start)
        .map(|(_, c)| c.output_tokens)
        .max()
        .unwrap_or(0)
        .max(1);
    let cells =
        |tokens: u64| (u128::from(tokens) * u128::from(BAR)).div_ceil(u128::from(max)) as usize;
    let mut out = "per day: █ kept out of context, ░ summary and read-back\n".to_string();
    let width = thousands(max).len();
    for offset in 0..=today.since(start) {
        let day = start.plus(offset);
        let counts = figures
            .by_day
            .iter()
            .find(|(d, _)| *d == day)
            .map(|(_, c)| *c)
            .unwrap_or_default();
        let put_in = (counts
            .summary_tokens
            .saturating_add(counts.read_back_tokens))
        .min(counts.output_tokens);
        let (bar, light) = (cells(counts.output_tokens), cells(put_in));
        let line = if counts.offloads == 0 {
            format!("{} {day}", day.weekday())
        } else {
            format!(
                "{} {day}  {}{}{}  {:>width$} of {:>width$} kept · {}",
                day.weekday(),
                "█".repeat(bar - light.min(bar)),
                "░".repeat(light.min(bar)),
                " ".repeat(BAR as usize - bar),
                signed(counts.kept()),
                thousands(counts.output_tokens),
                plural(counts.offloads, "offload", "offloads"),
            )
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn counts_json(counts: &Counts) -> Value {
    let rate =
        (counts.offloads > 0).then(|| counts.offloads_read_back as f64 / counts.offloads as f64);
    json!({
        "offloads": counts.offloads,
        "output_tokens": counts.output_tokens,
        "summary_tokens": counts.summary_tokens,
        "read_backs": counts.read_backs,
        "read_back_tokens": counts.read_back_tokens,
        "kept_tokens": i64::try_from(counts.kept()).unwrap_or(i64::MAX),
        "offloads_read_back": counts.offloads_read_back,
        "read_back_rate": rate,
    })
}

fn to_json(
    figures: &Figures,
    scope: &Scope,
    path: Option<&std::path::Path>,
    unreadable: usize,
) -> Value {
    // A row: its name first, then its figures.
    let with = |counts: &Counts, key: &str, value: Value| {
        let mut row = serde_json::Map::new();
        row.insert(key.to_string(), value);
        if let Value::Object(figures) = counts_json(counts) {
            row.extend(figures);
        }
        Value::Object(row)
    };
    json!({
        "history": path.map(|p| p.display().to_string()),
        "since": scope.since.map(|day| day.to_string()),
        "session": scope.session,
        "encoding": scope.encoding,
        "totals": counts_json(&figures.total),
        "by_command": figures.by_command.iter()
            .map(|(command, counts)| with(counts, "command", json!(command)))
            .collect::<Vec<_>>(),
        "by_shape": figures.by_shapes.iter()
            .map(|(shapes, counts)| with(counts, "shapes", json!(shapes)))
            .collect::<Vec<_>>(),
        "by_day": figures.by_day.iter()
            .map(|(day, counts)| with(counts, "day", json!(day.to_string())))
            .collect::<Vec<_>>(),
        "unmatched_read_backs": {
            "read_backs": figures.unmatched.read_backs,
            "read_back_tokens": figures.unmatched.read_back_tokens,
        },
        "left_out": {
            "other_encodings": figures.other_encodings,
            "folded_days": figures.folded_left_out,
        },
        "unreadable_lines": unreadable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(output: u64, summary: u64, read_back: u64) -> Counts {
        Counts {
            offloads: 1,
            output_tokens: output,
            summary_tokens: summary,
            read_backs: u64::from(read_back > 0),
            read_back_tokens: read_back,
            offloads_read_back: u64::from(read_back > 0),
        }
    }

    #[test]
    fn the_chart_has_a_bar_per_day_scaled_to_the_largest() {
        let today = Day::parse("2025-11-30").unwrap();
        let figures = Figures {
            by_day: vec![
                (today.minus(2), day(8_000, 1_000, 1_000)),
                (today, day(4_000, 100, 0)),
            ],
            ..Figures::default()
        };
        let scope = Scope {
            since: None,
            session: None,
            encoding: "o200k_base".into(),
        };
        let expected = format!(
            "per day: █ kept out of context, ░ summary and read-back\n\
             Fri 2025-11-28  {}{}  6,000 of 8,000 kept · 1 offload\n\
             Sat 2025-11-29\n\
             Sun 2025-11-30  {}{}{}  3,900 of 4,000 kept · 1 offload\n",
            "█".repeat(30),
            "░".repeat(10),
            "█".repeat(19),
            "░",
            " ".repeat(20),
        );
        assert_eq!(bar_chart(&figures, &scope, today), expected);
        // --since starts the chart on its day, empty days included.
        let since = Scope {
            since: Some(today.minus(3)),
            ..scope
        };
        let chart = bar_chart(&figures, &since, today);
        assert_eq!(chart.lines().nth(1), Some("Thu 2025-11-27"));
    }

    #[test]
    fn since_counts_today_as_the_first_day() {
        let today = Day::parse("2025-11-30").unwrap();
        let since = |text| parse_since(text, today).map(|d| d.to_string()).ok();
        assert_eq!(since("1d").as_deref(), Some("2025-11-30"));
        assert_eq!(since("7d").as_deref(), Some("2025-11-24"));
        assert_eq!(since("2w").as_deref(), Some("2025-11-17"));
        assert_eq!(since("2025-01-31").as_deref(), Some("2025-01-31"));
        for bad in ["0d", "d", "7", "1.5d", "99999999999d", "2025-02-30", ""] {
            assert_eq!(since(bad), None, "{bad}");
        }
    }
}
