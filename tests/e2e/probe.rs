//! A throwaway hook for proving a client's hook protocol: a shell script that saves every event it
//! is given (its stdin) and answers with whatever the test put in its answer file.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub struct Probe {
    dir: PathBuf,
}

impl Probe {
    /// A probe whose script, events and answer live in `dir` (created).
    pub fn new(dir: &Path) -> Probe {
        std::fs::create_dir_all(dir).expect("create the probe's folder");
        let script = dir.join("hook.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n\
                 d='{}'\n\
                 n=$(ls \"$d\" | grep -c '^event-')\n\
                 cat > \"$d/event-$n.json\"\n\
                 tr '\\0' '\\n' < /proc/$PPID/cmdline > \"$d/parent-$n.txt\"\n\
                 [ -f \"$d/answer.json\" ] && cat \"$d/answer.json\"\n\
                 exit 0\n",
                dir.display()
            ),
        )
        .expect("write the probe script");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .expect("make the probe executable");
        Probe {
            dir: dir.to_owned(),
        }
    }

    /// The command a client runs for this hook.
    pub fn command(&self) -> String {
        self.dir.join("hook.sh").display().to_string()
    }

    /// What the hook prints from now on (`None`: nothing).
    pub fn answer(&self, answer: Option<&Value>) {
        let file = self.dir.join("answer.json");
        match answer {
            Some(answer) => std::fs::write(file, answer.to_string()).expect("write the answer"),
            None => {
                let _ = std::fs::remove_file(file);
            }
        }
    }

    /// The command line of the process that ran the hook for event `n` (its parent).
    pub fn parent(&self, n: usize) -> Vec<String> {
        let file = self.dir.join(format!("parent-{n}.txt"));
        let text = std::fs::read_to_string(&file).expect("the parent's command line");
        text.lines().map(str::to_owned).collect()
    }

    /// Every event received so far, in order.
    pub fn events(&self) -> Vec<Value> {
        (0..)
            .map(|n| self.dir.join(format!("event-{n}.json")))
            .take_while(|file| file.exists())
            .map(|file| {
                let text = std::fs::read_to_string(&file).expect("read an event");
                serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {text}", file.display()))
            })
            .collect()
    }
}
