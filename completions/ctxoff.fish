# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ctxoff_global_optspecs
    string join \n threshold= preview= content-limit= encoding= dir= session= name= json q/quiet h/help V/version
end

function __fish_ctxoff_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ctxoff_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ctxoff_using_subcommand
    set -l cmd (__fish_ctxoff_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ctxoff -n "__fish_ctxoff_needs_command" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l name -d 'Name of the output file [default: the program\'s name, or `pipe`]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l json -d 'Print one JSON object (summary and counts) instead of the output or summary'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s q -l quiet -d 'No progress display and no notes on standard error'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s V -l version -d 'Print version'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "grep" -d 'Search an offloaded output'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "lines" -d 'Print line ranges of an offloaded output'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "list" -d 'List offloaded outputs'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "count" -d 'Print token counts, like `wc` for tokens'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "gc" -d 'Delete old offloaded outputs'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "stats" -d 'Show what offloading saved: tokens kept out of context, read-back rate'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "hook" -d 'An agent\'s hook handler: run ctxoff on the agent\'s shell commands'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "init" -d 'Set up an agent to use ctxoff: install its hook, or print instructions for it'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s A -l after-context -d 'Lines of context after each selected line [default: 2, or -C]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s B -l before-context -d 'Lines of context before each selected line [default: 2, or -C]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s C -l context -d 'Lines of context before and after each selected line [default: 2]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s m -l max-count -d 'Stop after N selected lines (trailing context is still printed)' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l range -d 'Search only these lines: A:B, A:, :B or -N: (the last N)' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s i -l ignore-case -d 'Ignore case'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s F -l fixed-strings -d 'Match PATTERN as a fixed string, not a regular expression'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s w -l word-regexp -d 'Match only whole words (as grep -w: not preceded or followed by a word character)'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s v -l invert-match -d 'Select the lines that do not match'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s c -l count -d 'Print only the number of selected lines'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -l all -d 'Print everything, without the token cap'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l plain -d 'Print the stored lines unchanged, without line numbers or cleaning'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -l all -d 'Print everything, without the token cap'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand lines" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l all -d 'List every session\'s outputs, not only the current session\'s'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -l json -d 'Print a JSON array of outputs (the manifest fields, with session, path and age)'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l older-than -d 'Remove outputs unused for longer than DURATION: 90s, 30m, 12h, 7d [default: 24h]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l max-size -d 'Then remove least recently used outputs until the rest take at most SIZE: 500M, 2G, bytes' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l all -d 'Remove every output (of --session, or of every session), however recent'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -s n -l dry-run -d 'Say what would be removed; remove nothing'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -l json -d 'Print one JSON object: what was removed and skipped, and the space freed'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -s q -l quiet -d 'Print nothing but errors'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand gc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l since -d 'Count from this day on: 7d (today and the 6 days before), 2w, or a date (2025-11-30) [default: all]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -l json -d 'Print one JSON object with every figure'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l explain -d 'Say what the hook would do with CMD here, and why' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l mode -d 'The permission mode for --explain' -r -f -a "default\t''
acceptEdits\t''
dontAsk\t''
bypassPermissions\t''
plan\t''
auto\t''"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l print -d 'Print the instruction snippet (for AGENT\'s instruction file); write nothing' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l preview -d 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l content-limit -d 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent\'s own limit [default: 6000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l global -d 'Change the user\'s settings, ~/.claude/settings.json or $CLAUDE_CONFIG_DIR/settings.json (the default)'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l project -d 'Change .claude/settings.json in the current directory'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l dry-run -d 'Show what would change; write nothing'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l uninstall -d 'Remove ctxoff\'s hooks, and nothing else'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l check -d 'Say where ctxoff\'s hooks are installed and what they run; change nothing'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
