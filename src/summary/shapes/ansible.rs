//! ansible-playbook: `TASK [name] ****` headers, a task's failure per host
//! (`fatal: [web1]: FAILED! => {"msg": …}`, `failed: [web1] (item=x) => {…}`,
//! `fatal: [web1]: UNREACHABLE! => {…}`), `...ignoring` under one that was ignored, ansible-core's
//! `[ERROR]: Task failed: …` record with the task's `Origin: site.yml:83:7`, and the `PLAY RECAP`
//! (`web1 : ok=29 changed=15 unreachable=0 failed=1 skipped=0 rescued=1 ignored=2`). Each
//! failure is named by its task and host, with its message and where the task is.

use serde_json::{Value, json};

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// The recap's counts, in ansible's order.
const RECAP: [&str; 7] = [
    "ok",
    "changed",
    "unreachable",
    "failed",
    "skipped",
    "rescued",
    "ignored",
];

/// Hosts whose recap is shown on its own.
const HOSTS_SHOWN: usize = 3;

#[derive(Debug, Default)]
pub(crate) struct Ansible {
    task: Option<String>,
    /// Where the task is, from its `Origin:` line.
    origin: Option<String>,
    tasks: u64,
    failures: Failures,
    /// The recap: each host's counts, and their sum.
    hosts: Vec<(String, [u64; 7])>,
    hosts_total: u64,
    sum: [u64; 7],
    /// The line of the last failure, which `...ignoring` may follow.
    last_failure: Option<u64>,
    /// After `PLAY RECAP`, where each host's counts are.
    in_recap: bool,
}

impl Shape for Ansible {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(name) = text
            .strip_prefix("TASK [")
            .and_then(|r| r.split_once("] "))
            .map(|(name, _)| name)
        {
            self.task = Some(cut(name, 160));
            self.origin = None;
            self.in_recap = false;
            self.tasks += 1;
            return;
        }
        if let Some(origin) = text.strip_prefix("Origin: ") {
            if self.origin.is_none() {
                self.origin = Some(cut(origin.trim(), 200));
            }
            return;
        }
        if text == "...ignoring" {
            if self.last_failure.is_some_and(|l| l + 1 == number)
                && let Some(f) = self.failures.current()
            {
                f.add_detail("(ignored)");
            }
            return;
        }
        if text.starts_with("PLAY RECAP") {
            self.in_recap = true;
            return;
        }
        if self.in_recap
            && let Some((host, counts)) = recap(text)
        {
            self.hosts_total += 1;
            for (sum, n) in self.sum.iter_mut().zip(counts) {
                *sum = sum.saturating_add(n);
            }
            if self.hosts.len() < HOSTS_SHOWN {
                self.hosts.push((cut(host, 80), counts));
            }
            return;
        }
        if let Some((host, item, result)) = failure(text) {
            let task = self.task.as_deref().unwrap_or("(no task)");
            let mut name = format!("{task} [{host}]");
            if let Some(item) = item {
                name.push_str(&format!(" (item={item})"));
            }
            self.failures.push(number, &name);
            self.last_failure = Some(number);
            if let Some(f) = self.failures.current() {
                f.add_detail(&message(result));
                if let Some(origin) = &self.origin {
                    f.add_detail(&format!("at {origin}"));
                }
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.hosts_total == 0 {
            return None;
        }
        let counts = |c: &[u64; 7]| {
            RECAP
                .iter()
                .zip(c)
                .map(|(k, n)| format!("{k}={}", thousands(*n)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut lines = vec![format!(
            "ansible: {}, {}; {}",
            plural(self.tasks, "task", "tasks"),
            plural(self.hosts_total, "host", "hosts"),
            counts(&self.sum)
        )];
        if self.hosts_total > 1 {
            for (host, c) in self.hosts.iter().filter(|(_, c)| c[2] + c[3] > 0) {
                lines.push(format!("  {host}: {}", counts(c)));
            }
        }
        let json = json!({
            "shape": "ansible",
            "tasks": self.tasks,
            "hosts": self.hosts_total,
            "recap": RECAP.iter().zip(self.sum).map(|(k, n)| ((*k).to_owned(), json!(n))).collect::<serde_json::Map<_, _>>(),
        });
        let failed = self.sum[2] + self.sum[3] > 0;
        Some(
            Fact::new("ansible", lines, json)
                .failures(self.failures.take_as("failed tasks"))
                .hint_if_failed(failed, "'^(fatal|failed): |^TASK ' -A 2")
                .supersedes(&["log"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.task.as_ref().map_or(0, String::capacity)
            + self.origin.as_ref().map_or(0, String::capacity)
            + self.failures.approx_heap()
            + self
                .hosts
                .iter()
                .map(|(h, _)| h.capacity() + 56)
                .sum::<usize>()
    }
}

/// `fatal: [web1]: FAILED! => {…}`, `failed: [web1] (item=x) => {…}`, `fatal: [web1]:
/// UNREACHABLE! => {…}` → (host, item, the result after `=> `).
fn failure(text: &str) -> Option<(&str, Option<&str>, &str)> {
    let rest = text
        .strip_prefix("fatal: [")
        .or_else(|| text.strip_prefix("failed: ["))?;
    let (host, rest) = rest.split_once(']')?;
    let (head, result) = rest.split_once("=> ")?;
    let item = head
        .split_once("(item=")
        .and_then(|(_, i)| i.rsplit_once(')'))
        .map(|(i, _)| i);
    Some((host, item, result))
}

/// A failure's message: the result's `msg` (and its `stderr`, when it says more), else the
/// result as printed.
fn message(result: &str) -> String {
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(result.trim()) else {
        return cut(result.trim(), 200);
    };
    let text = |k: &str| o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    match (text("msg"), text("stderr")) {
        (Some(msg), Some(stderr)) => format!("{msg}: {}", cut(stderr, 160)),
        (Some(msg), None) => msg.to_owned(),
        (None, Some(stderr)) => cut(stderr, 200),
        (None, None) => cut(result.trim(), 200),
    }
}

/// `web1 : ok=29 changed=15 unreachable=0 failed=1 skipped=0 rescued=1 ignored=2`.
fn recap(text: &str) -> Option<(&str, [u64; 7])> {
    let (host, rest) = text.split_once(" : ")?;
    let host = host.trim();
    if host.is_empty() || host.contains(' ') {
        return None;
    }
    let mut counts = [0; 7];
    let mut seen = 0;
    for pair in rest.split_whitespace() {
        let (k, v) = pair.split_once('=')?;
        let i = RECAP.iter().position(|r| *r == k)?;
        counts[i] = v.parse().ok()?;
        seen += 1;
    }
    (seen >= 4).then_some((host, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_and_recap() {
        assert_eq!(
            failure("failed: [localhost] (item=production) => {\"msg\": \"x\"}"),
            Some(("localhost", Some("production"), "{\"msg\": \"x\"}"))
        );
        assert_eq!(
            message(
                "{\"changed\": true, \"msg\": \"non-zero return code\", \"stderr\": \"ls: no\"}"
            ),
            "non-zero return code: ls: no"
        );
        assert_eq!(
            recap(
                "web1                  : ok=29   changed=15   unreachable=0    failed=1    skipped=0    rescued=1    ignored=2   "
            ),
            Some(("web1", [29, 15, 0, 1, 0, 1, 2]))
        );
        assert_eq!(recap("key : value=1"), None);
    }
}
