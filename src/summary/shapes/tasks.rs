//! Runners of several tasks or processes, by their closing lines: a monorepo's task runner
//! (turbo's `Tasks:    1 successful, 5 total` and `Failed:    a#test, b#test`, pnpm's `Summary:
//! 4 fails, 1 passes` and its ` ERROR  pkg@1.0.0 test: …` / `Exit status 3`, nx's and lerna's
//! `Failed tasks:` list, npm's `npm error workspace pkg@1.0.0`), tox's `  py: FAIL code 1
//! (…)`, and process managers (concurrently's and foreman's `… exited with code 1`, honcho's
//! `web.1 stopped (rc=1)`), and pre-commit's hooks (`black.......Failed`, `- exit code: 1`).
//! Their lines arrive without the runner's prefix (see
//! `summary::prefix`). Stated: which tasks failed, with their exit status, and the runner's
//! own totals; the tasks' own output is read by the other shapes.

use serde_json::json;

use super::names::NAMES_KEPT;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Tasks remembered by name.
const TASKS_KEPT: usize = 64;

#[derive(Debug, Default)]
pub(crate) struct Tasks {
    runner: Option<&'static str>,
    /// The runner's own totals, when it states them.
    total: Option<u64>,
    succeeded: Option<u64>,
    failed: Option<u64>,
    /// Each task's name, exit status as printed, and whether it failed, in order.
    tasks: Vec<Task>,
    more_tasks: u64,
    /// Reading turbo's, nx's or lerna's list of failed tasks.
    in_failed_list: bool,
    /// A failed task whose exit status is on the next line (pnpm), or the exit status of a
    /// task named on a later line (npm).
    pending: Option<String>,
    npm_code: Option<String>,
    /// tox's verdict.
    verdict: Option<&'static str>,
    /// The pre-commit hook read last failed: the lines up to the next are its output.
    in_failed_hook: bool,
    /// Reading a diff in a failed hook's output (black's `--diff`, isort's).
    in_diff: bool,
}

#[derive(Debug)]
struct Task {
    name: String,
    status: Option<String>,
    failed: bool,
    /// The runner's own verdict on it, as printed but for its timings (tox's `py: FAIL code 1`).
    said: Option<String>,
    /// What a failed pre-commit hook said (`Fixing setup.cfg`, `would reformat setup.py`),
    /// but for diffs and `path:line:` findings, which other shapes read: its first lines, how
    /// many more, and its last (`3 files would be reformatted.`).
    said_lines: Vec<String>,
    more_said: u64,
    last_said: Option<String>,
}

impl Shape for Tasks {
    fn line(&mut self, _number: u64, text: &str) {
        let t = text.trim();
        if t.is_empty() {
            return;
        }
        if let Some(name) = self.pending.take() {
            if let Some(code) = t.strip_prefix("Exit status ") {
                self.task(&name, Some(format!("exit {code}")), true);
                return;
            }
            self.task(&name, None, true);
        }
        if self.in_failed_list {
            if let Some(name) = t.strip_prefix("- ") {
                self.task(name, None, true);
                return;
            }
            self.in_failed_list = false;
        }
        // Most lines are neither (a runner's line starts with one of these; a task's end ends
        // in its status).
        let (tasks, verdict) = (self.tasks.len(), self.verdict);
        if b"TFSELNnce>[".contains(&t.as_bytes()[0]) {
            self.runner_line(t);
        }
        let last = t.as_bytes()[t.len() - 1];
        if last.is_ascii_digit() || last == b')' {
            self.task_line(t);
        } else if last == b'd' && self.hook_line(t) {
            return;
        }
        // pre-commit: what a failed hook said, up to the next hook or a runner's own line
        // (tox's verdict on the environment that ran pre-commit).
        if self.tasks.len() != tasks || self.verdict != verdict {
            self.in_failed_hook = false;
        } else if self.in_failed_hook && !t.starts_with("- ") {
            self.hook_output(text, t);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let failed: Vec<&Task> = self.tasks.iter().filter(|t| t.failed).collect();
        // Processes that all ended well say nothing a runner's totals would not.
        if failed.is_empty() && self.runner.is_none() {
            return None;
        }
        let failed_count = self.failed.unwrap_or(failed.len() as u64);
        let mut line = match self.runner {
            Some(runner) => format!("tasks ({runner}): "),
            None => "tasks: ".to_owned(),
        };
        let mut counts = Vec::new();
        if let Some(total) = self.total {
            counts.push(format!("{} total", thousands(total)));
        }
        if let Some(ok) = self.succeeded {
            counts.push(format!("{} successful", thousands(ok)));
        }
        counts.push(format!("{} failed", thousands(failed_count)));
        line.push_str(&counts.join(", "));
        // The runner's verdicts on the failed tasks quoted while they are few, else named.
        let said: Option<Vec<String>> = failed.iter().map(|t| t.said.clone()).collect();
        let quoted = said
            .filter(|q| !q.is_empty() && q.len() <= NAMES_KEPT)
            .unwrap_or_default();
        // pre-commit's failed hooks are each said below, with what they said.
        let hooks = self.runner == Some("pre-commit");
        if !failed.is_empty() && quoted.is_empty() && !hooks {
            let names: Vec<String> = failed.iter().map(|t| t.render()).collect();
            line.push_str(&format!(": {}", names.join(", ")));
        }
        if let Some(verdict) = self.verdict {
            line.push_str(&format!(" ({verdict})"));
        }
        let mut lines = vec![line];
        let others: Vec<String> = self
            .tasks
            .iter()
            .filter(|t| !t.failed && t.status.is_some())
            .map(Task::render)
            .collect();
        if !others.is_empty() {
            let more = if self.more_tasks > 0 {
                format!(", … {} more", thousands(self.more_tasks))
            } else {
                String::new()
            };
            lines.push(format!("ended: {}{more}", others.join(", ")));
        }
        for task in failed.iter().filter(|_| hooks) {
            let mut said = task.said_lines.clone();
            if task.more_said > 0 {
                said.push(format!("… {} more", thousands(task.more_said)));
            }
            said.extend(task.last_said.clone());
            let mut line = format!("{} failed", task.render());
            if !said.is_empty() {
                line.push_str(&format!(": {}", said.join(" · ")));
            }
            lines.push(line);
        }
        let json = json!({
            "shape": "tasks",
            "runner": self.runner,
            "total": self.total,
            "succeeded": self.succeeded,
            "failed": failed_count,
            "tasks": self.tasks.iter().map(|t| json!({"name": t.name, "status": t.status,
                "failed": t.failed})).collect::<Vec<_>>(),
        });
        // Not a report of its own: what the tasks printed is read by the other shapes, a log
        // among them (a process manager runs servers).
        Some(
            Fact::new("tasks", lines, json)
                .quoting(quoted)
                .log()
                .runner(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.tasks
            .iter()
            .map(|t| {
                t.name.capacity()
                    + t.status.as_ref().map_or(0, String::capacity)
                    + t.said_lines.iter().map(String::capacity).sum::<usize>()
                    + t.last_said.as_ref().map_or(0, String::capacity)
                    + 72
            })
            .sum::<usize>()
            + self.pending.as_ref().map_or(0, String::capacity)
    }
}

impl Task {
    fn render(&self) -> String {
        match &self.status {
            Some(status) => format!("{} ({status})", self.name),
            None => self.name.clone(),
        }
    }
}

/// Lines of a failed pre-commit hook's output said before its last.
const HOOK_LINES: usize = 4;

impl Tasks {
    /// A line of a failed pre-commit hook's output (`text` as printed, `t` trimmed): kept
    /// unless it is part of a diff or a `path:line:` finding.
    fn hook_output(&mut self, text: &str, t: &str) {
        let diff_head = ["--- ", "+++ ", "@@ ", "diff "]
            .iter()
            .any(|p| text.starts_with(p));
        if diff_head {
            self.in_diff = true;
            return;
        }
        if self.in_diff && matches!(text.as_bytes().first(), Some(b' ' | b'+' | b'-' | b'\\')) {
            return;
        }
        self.in_diff = false;
        // Findings, with their code frames (`--> a.py:3:9`, `3 |     x`, `|     ^`) and
        // headers (`SIM105 Use …`, `help: …`), which the shapes of the hook's tool read.
        let code = t.split_once(' ').is_some_and(|(code, _)| {
            let letters = code.bytes().take_while(u8::is_ascii_uppercase).count();
            (1..=4).contains(&letters)
                && code.len() - letters >= 3
                && code[letters..].bytes().all(|b| b.is_ascii_digit())
        });
        let frame = t.starts_with("-->")
            || t.starts_with('|')
            || t.starts_with('^')
            || t.starts_with("help: ")
            || code
            || t.trim_start_matches(|c: char| c.is_ascii_digit())
                .starts_with(" |");
        // So is a checker's total (`Found 11 errors.`), which its shape states, and a line that
        // says little (`Oh no! 💥 💔 💥`).
        let total = t
            .strip_prefix("Found ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        let says_little = t.bytes().filter(u8::is_ascii_alphabetic).count() < 8;
        let finding = super::diagnostics::location(t, |p| !p.starts_with("http")).is_some();
        if frame || total || says_little || finding {
            return;
        }
        let Some(task) = self.tasks.last_mut() else {
            return;
        };
        let line = cut(t, 120);
        if task.said_lines.contains(&line) {
            // Said again (black's verdict on each batch of files).
            return;
        }
        if task.said_lines.len() < HOOK_LINES {
            task.said_lines.push(line);
        } else if task.last_said.replace(line).is_some() {
            task.more_said = task.more_said.saturating_add(1);
        }
    }

    /// A task's outcome; a task named again gets the status it lacked. The task, unless it is
    /// past those remembered.
    fn task(&mut self, name: &str, status: Option<String>, failed: bool) -> Option<&mut Task> {
        let name = cut(name.trim(), 100);
        match self.tasks.iter().position(|t| t.name == name) {
            Some(i) => {
                let task = &mut self.tasks[i];
                task.failed |= failed;
                if status.is_some() {
                    task.status = status;
                }
                Some(task)
            }
            None if self.tasks.len() < TASKS_KEPT => {
                self.tasks.push(Task {
                    name,
                    status,
                    failed,
                    said: None,
                    said_lines: Vec::new(),
                    more_said: 0,
                    last_said: None,
                });
                self.tasks.last_mut()
            }
            None => {
                self.more_tasks = self.more_tasks.saturating_add(1);
                None
            }
        }
    }

    /// The runners' own summaries.
    fn runner_line(&mut self, t: &str) {
        if let Some(rest) = t.strip_prefix("Tasks:") {
            // turbo: `Tasks:    1 successful, 5 total`.
            let rest = rest.trim();
            if let Some((ok, total)) = rest.split_once(" successful, ")
                && let (Ok(ok), Some(Ok(total))) = (
                    ok.trim().parse(),
                    total.strip_suffix(" total").map(str::parse),
                )
            {
                self.runner = Some("turbo");
                self.succeeded = Some(ok);
                self.total = Some(total);
            }
        } else if let Some(rest) = t.strip_prefix("Failed:") {
            if self.runner == Some("turbo") {
                for name in rest.split(", ") {
                    self.task(name, None, true);
                }
            }
        } else if let Some(rest) = t.strip_prefix("Summary: ") {
            // pnpm: `Summary: 4 fails, 1 passes`.
            if let Some((fails, passes)) = rest.split_once(" fails, ")
                && let (Ok(fails), Some(Ok(passes))) = (
                    fails.parse::<u64>(),
                    passes.strip_suffix(" passes").map(str::parse::<u64>),
                )
            {
                self.runner = Some("pnpm");
                self.failed = Some(fails);
                self.succeeded = Some(passes);
                self.total = Some(fails.saturating_add(passes));
            }
        } else if let Some(rest) = t
            .strip_prefix("ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL")
            .or_else(|| t.strip_prefix("ERROR"))
            .or_else(|| t.strip_prefix("[ERROR]"))
        {
            // pnpm: ` ERROR  chance@1.1.13 test: `ava`` then `Exit status 1` (the spaces
            // around its badge may be thin ones); pnpm 10 and later without colours:
            // `[ERROR] @tanstack/vue-store@0.11.1 test:lib: `vitest``.
            if let Some((task, _command)) = rest.trim_start().split_once(": `")
                && task.contains('@')
            {
                self.runner.get_or_insert("pnpm");
                self.pending = Some(task.to_owned());
            }
        } else if t == "Failed tasks:" {
            self.in_failed_list = true;
        } else if let Some(at) = (t.starts_with("NX")
            || t.starts_with("Lerna")
            || t.trim_start_matches(['>', ' ']).starts_with("NX"))
        .then(|| {
            t.find("Running target")
                .or_else(|| t.find("Successfully ran target"))
        })
        .flatten()
        {
            // nx, lerna: `Lerna (powered by Nx)   Running target test for 5 projects failed`.
            let runner = if t.starts_with("Lerna") {
                "lerna"
            } else {
                "nx"
            };
            let counted = t[at..].split_once(" for ").and_then(|(_, rest)| {
                let (n, rest) = rest.split_once(' ')?;
                Some((n.parse::<u64>().ok()?, rest))
            });
            if let Some((n, rest)) = counted {
                self.runner = Some(runner);
                self.total = Some(n);
                if !rest.ends_with("failed") && t.contains("Successfully ran target") {
                    self.succeeded = Some(n);
                }
            }
        } else if let Some(rest) = t
            .strip_prefix("npm error ")
            .or_else(|| t.strip_prefix("npm ERR! "))
        {
            if let Some(code) = rest.strip_prefix("code ") {
                self.npm_code = Some(format!("exit {code}"));
            } else if let Some(workspace) = rest.strip_prefix("workspace ") {
                self.runner.get_or_insert("npm");
                let status = self.npm_code.take();
                self.task(workspace, status, true);
            }
        } else if t == "congratulations :)" || t.starts_with("congratulations :) (") {
            self.runner.get_or_insert("tox");
            self.verdict = Some("congratulations");
        } else if t.starts_with("evaluation failed :(") {
            self.runner.get_or_insert("tox");
            self.verdict = Some("evaluation failed");
        }
    }

    /// pre-commit's `black....................Failed` (`Passed`, `(no files to check)Skipped`):
    /// a hook and how it ended; its exit status follows on a failed hook's `- exit code: 1`.
    fn hook_line(&mut self, t: &str) -> bool {
        let (rest, passed, failed) = if let Some(r) = t.strip_suffix("Failed") {
            (r, false, true)
        } else if let Some(r) = t.strip_suffix("Passed") {
            (r, true, false)
        } else if let Some(r) = t.strip_suffix("Skipped") {
            (
                r.strip_suffix("(no files to check)").unwrap_or(r),
                false,
                false,
            )
        } else {
            return false;
        };
        let name = rest.trim_end_matches('.');
        if rest.len() - name.len() < 3 || name.trim().is_empty() {
            return false;
        }
        self.runner.get_or_insert("pre-commit");
        self.in_failed_hook = failed;
        self.in_diff = false;
        *self.total.get_or_insert(0) += 1;
        let succeeded = self.succeeded.get_or_insert(0);
        *succeeded += u64::from(passed);
        if failed {
            self.task(name.trim(), None, true);
        }
        true
    }

    /// A task's or process's own end.
    fn task_line(&mut self, t: &str) {
        // pre-commit: the failed hook's status.
        if let Some(code) = t.strip_prefix("- exit code: ")
            && self.runner == Some("pre-commit")
        {
            if let Some(task) = self.tasks.last_mut()
                && task.failed
                && task.status.is_none()
            {
                task.status = Some(format!("exit {code}"));
            }
            return;
        }
        // Read from the end, by bytes: most lines that end in a digit or `)` are neither.
        let digits = t.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
        if digits.len() < t.len() {
            if let Some(command) = digits.strip_suffix(" exited with code ") {
                // concurrently, foreman, docker compose; not a log record's (`[notice]
                // 6964#6964: worker process 6966 exited with code 0`).
                if let Ok(code) = t[digits.len()..].parse::<i64>()
                    && !command.is_empty()
                    && !command.contains(": ")
                    && !command.contains(']')
                {
                    self.task(command, Some(format!("exit {code}")), code != 0);
                }
            }
            return;
        }
        let Some(open) = t.rfind('(') else {
            return;
        };
        let (before, inside) = (&t[..open], &t[open + 1..t.len() - 1]);
        if let Some(name) = before.strip_suffix(" stopped ") {
            // honcho: `web.1 stopped (rc=1)`.
            if let Some(Ok(rc)) = inside.strip_prefix("rc=").map(str::parse::<i64>)
                && !name.contains(' ')
            {
                // A negative status is a signal's: the manager stopping the others.
                self.task(name, Some(format!("rc={rc}")), rc > 0);
            }
            return;
        }
        let Some(colon) = t.find(':') else {
            return;
        };
        let (name, rest) = (&t[..colon], t[colon + 1..].trim_start());
        if name.is_empty() || name.contains(' ') || !t[colon + 1..].starts_with(' ') {
            return;
        }
        if before.ends_with(" exited ") && name.contains('#') {
            // turbo: `qs#test:  ERROR  command (…) … exited (1)`.
            self.task(name, Some(format!("exit {inside}")), inside != "0");
        } else if self.verdict.is_none() {
            // tox: `py: FAIL code 1 (…)`, `lint: OK (6.65=setup[6.61]+cmd[0.04] seconds)`.
            if let Some(code) = rest.strip_prefix("FAIL code ") {
                let code = code.split_whitespace().next().unwrap_or("");
                self.runner.get_or_insert("tox");
                if let Some(task) = self.task(name, Some(format!("exit {code}")), true) {
                    let said = t.split(" (").next().unwrap_or(t);
                    task.said = Some(cut(said, 160));
                }
            } else if rest.starts_with("OK (") && rest.ends_with(" seconds)") {
                self.runner.get_or_insert("tox");
                self.task(name, Some("OK".to_owned()), false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> Vec<String> {
        let mut shape = Box::<Tasks>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        shape
            .finish()
            .map(|f| f.lines.into_iter().chain(f.quoted).collect())
            .unwrap_or_default()
    }

    #[test]
    fn runners_closing_lines_name_the_failed_tasks() {
        assert_eq!(
            facts(
                "qs#test:  ERROR  command (/p/qs) /usr/bin/pnpm run test exited (1)\n\
                 zod#test:  ERROR  command (/p/zod) /usr/bin/pnpm run test exited (3)\n\
                 \n Tasks:    1 successful, 3 total\nCached:    0 cached, 3 total\n\
                 Failed:    qs#test, zod#test\n"
            ),
            ["tasks (turbo): 3 total, 1 successful, 2 failed: qs#test (exit 1), zod#test (exit 3)"]
        );
        assert_eq!(
            facts(
                "Summary: 1 fails, 1 passes\n\n/p/chance:\n\u{2009}ERROR\u{2009} chance@1.1.13 test: `ava`\n\
                 Exit status 1\n"
            ),
            ["tasks (pnpm): 2 total, 1 successful, 1 failed: chance@1.1.13 test (exit 1)"]
        );
        assert_eq!(
            facts(
                "[ERR_PNPM_RECURSIVE_FAIL] \n\n\nSummary: 1 fails, 1 passes\n\n/p/vue-store:\n\
                 [ERROR] @tanstack/vue-store@0.11.1 test:lib: `pnpm run test:lib:3`\nExit status 1\n"
            ),
            [
                "tasks (pnpm): 2 total, 1 successful, 1 failed: @tanstack/vue-store@0.11.1 test:lib (exit 1)"
            ]
        );
        assert_eq!(
            facts(
                " NX   Running targets lint, typecheck for 5 projects failed\n\nFailed tasks:\n\n\
                 - qs:lint\n- zod:typecheck\n"
            ),
            ["tasks (nx): 5 total, 2 failed: qs:lint, zod:typecheck"]
        );
        assert_eq!(
            facts(
                "fix end of files.........................................................Failed\n\
                 - hook id: end-of-file-fixer\n- exit code: 1\n- files were modified by this hook\n\n\
                 Fixing setup.cfg\nFixing docs/conf.py\nFixing README.md\n\n\
                 check toml...............................................................Passed\n\
                 Fixing not/a/hook/line.py\n\
                 black....................................................................Failed\n\
                 - hook id: black\n- exit code: 1\n\n\
                 --- setup.py\t2026-10-18 17:26:26.703317+00:00\n\
                 +++ setup.py\t2026-12-07 13:31:33.398419+00:00\n\
                 @@ -22,28 +22,28 @@\n     description=DESCRIPTION,\n-    x\n+    y\n\
                 would reformat setup.py\n\
                 --- tests.py\t2026-10-18 17:26:26.703317+00:00\n\
                 +++ tests.py\t2026-12-07 13:31:33.398419+00:00\n\
                 @@ -1 +1 @@\n-a\n+b\nwould reformat tests.py\n\n\
                 Oh no! 💥 💔 💥\n3 files would be reformatted.\n\
                 flake8...................................................................Failed\n\
                 - hook id: flake8\n- exit code: 1\n\n\
                 tests.py:1:1: E265 block comment should start with '# '\n"
            ),
            [
                "tasks (pre-commit): 4 total, 1 successful, 3 failed",
                "fix end of files (exit 1) failed: Fixing setup.cfg · Fixing docs/conf.py · \
                 Fixing README.md",
                "black (exit 1) failed: would reformat setup.py · would reformat tests.py · 3 files \
                 would be reformatted.",
                "flake8 (exit 1) failed",
            ]
        );
        // tox's verdict on the environment that ran pre-commit is tox's, not the hook's.
        assert_eq!(
            facts(
                "black....................................................................Failed\n\
                 - hook id: black\n- exit code: 1\n\nwould reformat setup.py\n\
                 1 file would be reformatted.\n\
                   lint: FAIL code 1 (2.50=setup[0.49]+cmd[2.01] seconds)\n\
                 a line of the run after it\n"
            ),
            [
                "tasks (pre-commit): 1 total, 0 successful, 2 failed",
                "black (exit 1) failed: would reformat setup.py · 1 file would be reformatted.",
                "lint (exit 1) failed",
            ]
        );
        assert_eq!(
            facts(
                "npm error code 1\nnpm error path /p/zod\nnpm error workspace zod@4.6.7\n\
                 npm error location /p/zod\n"
            ),
            ["tasks (npm): 1 failed: zod@4.6.7 (exit 1)"]
        );
        assert_eq!(
            facts(
                "  py: FAIL code 1 (13.85=setup[7.61]+cmd[6.24] seconds)\n\
                 \x20 lint: OK (6.65=setup[6.61]+cmd[0.04] seconds)\n  evaluation failed :( (77.02 seconds)\n"
            ),
            [
                "tasks (tox): 1 failed (evaluation failed)",
                "ended: lint (OK)",
                "py: FAIL code 1"
            ]
        );
    }

    #[test]
    fn process_managers_ends_are_read() {
        assert_eq!(
            facts(
                "web.1 started (pid=1650)\nweb.1 stopped (rc=1)\nredis.1 stopped (rc=-15)\n\
                 npm run lint exited with code 0\n"
            ),
            [
                "tasks: 1 failed: web.1 (rc=1)",
                "ended: redis.1 (rc=-15), npm run lint (exit 0)"
            ]
        );
        assert!(facts("all good\nnothing ended\n").is_empty());
        assert!(facts("npm run lint exited with code 0\nweb.1 stopped (rc=-15)\n").is_empty());
        assert!(
            facts("2026/12/02 [notice] 6964#6964: worker process 6966 exited with code 2\n")
                .is_empty()
        );
    }
}
