
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ctxoff' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ctxoff'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ctxoff' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name of the output file [default: the program''s name, or `pipe`]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object (summary and counts) instead of the output or summary')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress display and no notes on standard error')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress display and no notes on standard error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search an offloaded output')
            [CompletionResult]::new('lines', 'lines', [CompletionResultType]::ParameterValue, 'Print line ranges of an offloaded output')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List offloaded outputs')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Print token counts, like `wc` for tokens')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Delete old offloaded outputs')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Show what offloading saved: tokens kept out of context, read-back rate')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'An agent''s hook handler: run ctxoff on the agent''s shell commands')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up an agent to use ctxoff: install its hook, or print instructions for it')
            break
        }
        'ctxoff;grep' {
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each selected line [default: 2, or -C]')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines of context after each selected line [default: 2, or -C]')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each selected line [default: 2, or -C]')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines of context before each selected line [default: 2, or -C]')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each selected line [default: 2]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each selected line [default: 2]')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Stop after N selected lines (trailing context is still printed)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Stop after N selected lines (trailing context is still printed)')
            [CompletionResult]::new('--range', '--range', [CompletionResultType]::ParameterName, 'Search only these lines: A:B, A:, :B or -N: (the last N)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Ignore case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Ignore case')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Match PATTERN as a fixed string, not a regular expression')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Match PATTERN as a fixed string, not a regular expression')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Match only whole words (as grep -w: not preceded or followed by a word character)')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Match only whole words (as grep -w: not preceded or followed by a word character)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Select the lines that do not match')
            [CompletionResult]::new('--invert-match', '--invert-match', [CompletionResultType]::ParameterName, 'Select the lines that do not match')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print only the number of selected lines')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print only the number of selected lines')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Print everything, without the token cap')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;lines' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--plain', '--plain', [CompletionResultType]::ParameterName, 'Print the stored lines unchanged, without line numbers or cleaning')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Print everything, without the token cap')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;list' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'List every session''s outputs, not only the current session''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON array of outputs (the manifest fields, with session, path and age)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;count' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;gc' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Remove outputs unused for longer than DURATION: 90s, 30m, 12h, 7d [default: 24h]')
            [CompletionResult]::new('--max-size', '--max-size', [CompletionResultType]::ParameterName, 'Then remove least recently used outputs until the rest take at most SIZE: 500M, 2G, bytes')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Remove every output (of --session, or of every session), however recent')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say what would be removed; remove nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed; remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object: what was removed and skipped, and the space freed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;stats' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Count from this day on: 7d (today and the 6 days before), 2w, or a date (2025-11-30) [default: all]')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object with every figure')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;hook' {
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say what the hook would do with CMD here, and why')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'The permission mode for --explain')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;init' {
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Print the instruction snippet (for AGENT''s instruction file); write nothing')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]')
            [CompletionResult]::new('--content-limit', '--content-limit', [CompletionResultType]::ParameterName, 'Output of a command run to read content (cat, head, sed -n, git show, a diff) passes through up to this many tokens, within the agent''s own limit [default: 6000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Change the user''s settings, ~/.claude/settings.json or $CLAUDE_CONFIG_DIR/settings.json (the default)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Change .claude/settings.json in the current directory')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change; write nothing')
            [CompletionResult]::new('--uninstall', '--uninstall', [CompletionResultType]::ParameterName, 'Remove ctxoff''s hooks, and nothing else')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Say where ctxoff''s hooks are installed and what they run; change nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
