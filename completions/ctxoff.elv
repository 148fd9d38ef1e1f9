
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
            cand --preview 'Tokens of head and tail shown in a summary [default: 1000]'
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
            cand count 'Print token counts, like `wc` for tokens'
            cand hook 'Rewrite an agent''s shell commands to run through ctxoff (an agent hook handler)'
            cand init 'Set up an agent to use ctxoff: install its hook, or print instructions for it'
        }
        &'ctxoff;count'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary [default: 1000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;hook'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary [default: 1000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ctxoff;init'= {
            cand --threshold 'Offload output of more than this many tokens [default: 2500]'
            cand --preview 'Tokens of head and tail shown in a summary [default: 1000]'
            cand --encoding 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]'
            cand --dir 'Scratch root [default: /tmp/agent]'
            cand --session 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]'
            cand --global 'Change the user''s settings, ~/.claude/settings.json (the default)'
            cand --project 'Change .claude/settings.json in the current directory'
            cand --dry-run 'Show what would change; write nothing'
            cand --uninstall 'Remove ctxoff''s hook, and nothing else'
            cand --print 'Print the AGENTS.md / CLAUDE.md instruction snippet'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
    ]
    $completions[$command]
}
