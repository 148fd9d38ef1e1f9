
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
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary [default: 1000]')
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
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Print token counts, like `wc` for tokens')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Rewrite an agent''s shell commands to run through ctxoff (an agent hook handler)')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set up an agent to use ctxoff: install its hook, or print instructions for it')
            break
        }
        'ctxoff;count' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary [default: 1000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;hook' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary [default: 1000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ctxoff;init' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Offload output of more than this many tokens [default: 2500]')
            [CompletionResult]::new('--preview', '--preview', [CompletionResultType]::ParameterName, 'Tokens of head and tail shown in a summary [default: 1000]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Scratch root [default: /tmp/agent]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Change the user''s settings, ~/.claude/settings.json (the default)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Change .claude/settings.json in the current directory')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would change; write nothing')
            [CompletionResult]::new('--uninstall', '--uninstall', [CompletionResultType]::ParameterName, 'Remove ctxoff''s hook, and nothing else')
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Print the AGENTS.md / CLAUDE.md instruction snippet')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
