
use builtin;
use str;

set edit:completion:arg-completer[ctxoff] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ctxoff'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ctxoff'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --name 'Name of the output file [default: the program''s name, or `pipe`]'
            cand --json 'Print one JSON object (summary and counts) instead of the output or summary'
            cand -q 'No progress display and no notes on standard error'
            cand --quiet 'No progress display and no notes on standard error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand grep 'Search an offloaded output'
            cand lines 'Print line ranges of an offloaded output'
            cand list 'List offloaded outputs'
            cand count 'Print token counts, like `wc` for tokens'
            cand gc 'Delete old offloaded outputs'
            cand stats 'Show what offloading saved: tokens kept out of context, read-back rate'
            cand hook 'An agent''s hook handler: run ctxoff on the agent''s shell commands'
            cand init 'Set up an agent to use ctxoff: install its hook, or print instructions for it'
        }
        &'ctxoff;grep'= {
            cand -A 'Lines of context after each selected line [default: 2, or -C]'
            cand --after-context 'Lines of context after each selected line [default: 2, or -C]'
            cand -B 'Lines of context before each selected line [default: 2, or -C]'
            cand --before-context 'Lines of context before each selected line [default: 2, or -C]'
            cand -C 'Lines of context before and after each selected line [default: 2]'
            cand --context 'Lines of context before and after each selected line [default: 2]'
            cand -m 'Stop after N selected lines (trailing context is still printed)'
            cand --max-count 'Stop after N selected lines (trailing context is still printed)'
            cand --range 'Search only these lines: A:B, A:, :B or -N: (the last N)'
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand -i 'Ignore case'
            cand --ignore-case 'Ignore case'
            cand -F 'Match PATTERN as a fixed string, not a regular expression'
            cand --fixed-strings 'Match PATTERN as a fixed string, not a regular expression'
            cand -w 'Match only whole words (as grep -w: not preceded or followed by a word character)'
            cand --word-regexp 'Match only whole words (as grep -w: not preceded or followed by a word character)'
            cand -v 'Select the lines that do not match'
            cand --invert-match 'Select the lines that do not match'
            cand -c 'Print only the number of selected lines'
            cand --count 'Print only the number of selected lines'
            cand --all 'Print everything, without the token cap'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;lines'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --plain 'Print the stored lines unchanged, without line numbers or cleaning'
            cand --all 'Print everything, without the token cap'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;list'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --all 'List every session''s outputs, not only the current session''s'
            cand --json 'Print a JSON array of outputs (the manifest fields, with session, path and age)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;count'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;gc'= {
            cand --older-than 'Remove outputs unused for longer than DURATION: 90s, 30m, 12h, 7d [default: 24h]'
            cand --max-size 'Then remove least recently used outputs until the rest take at most SIZE: 500M, 2G, bytes'
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --all 'Remove every output (of --session, or of every session), however recent'
            cand -n 'Say what would be removed; remove nothing'
            cand --dry-run 'Say what would be removed; remove nothing'
            cand --json 'Print one JSON object: what was removed and skipped, and the space freed'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;stats'= {
            cand --since 'Count from this day on: 7d (today and the 6 days before), 2w, or a date (2025-11-30) [default: all]'
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --json 'Print one JSON object with every figure'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;hook'= {
            cand --explain 'Say what the hook would do with CMD here, and why'
            cand --mode 'The permission mode for --explain'
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;init'= {
            cand --print 'Print the instruction snippet (for AGENT''s instruction file); write nothing'
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]'
            cand --content-limit 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --global 'Change the user''s settings, ~/.claude/settings.json or $CLAUDE_CONFIG_DIR/settings.json (the default)'
            cand --project 'Change .claude/settings.json in the current directory'
            cand --dry-run 'Show what would change; write nothing'
            cand --uninstall 'Remove ctxoff''s hooks, and nothing else'
            cand --check 'Say where ctxoff''s hooks are installed and what they run; change nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
    ]
    $completions[$command]
}
