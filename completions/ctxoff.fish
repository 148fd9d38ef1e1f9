# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ctxoff_global_optspecs
    string join \n threshold= preview= encoding= dir= session= name= json q/quiet h/help V/version
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
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l preview -d 'Tokens of head and tail shown in a summary [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l name -d 'Name of the output file [default: the program\'s name, or `pipe`]' -r
complete -c ctxoff -n "__fish_ctxoff_needs_command" -l json -d 'Print one JSON object (summary and counts) instead of the output or summary'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s q -l quiet -d 'No progress display and no notes on standard error'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -s V -l version -d 'Print version'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "count" -d 'Print token counts, like `wc` for tokens'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "hook" -d 'Rewrite an agent\'s shell commands to run through ctxoff (an agent hook handler)'
complete -c ctxoff -n "__fish_ctxoff_needs_command" -a "init" -d 'Set up an agent to use ctxoff: install its hook, or print instructions for it'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l preview -d 'Tokens of head and tail shown in a summary [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand count" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l preview -d 'Tokens of head and tail shown in a summary [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand hook" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l threshold -d 'Offload output of more than this many tokens [default: 2500]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l preview -d 'Tokens of head and tail shown in a summary [default: 1000]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l encoding -d 'Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l dir -d 'Scratch root [default: /tmp/agent]' -r -f -a "(__fish_complete_directories)"
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l session -d 'Session name [default: the agent process that runs ctxoff, e.g. claude-4821]' -r
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l global -d 'Change the user\'s settings, ~/.claude/settings.json (the default)'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l project -d 'Change .claude/settings.json in the current directory'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l dry-run -d 'Show what would change; write nothing'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l uninstall -d 'Remove ctxoff\'s hook, and nothing else'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -l print -d 'Print the AGENTS.md / CLAUDE.md instruction snippet'
complete -c ctxoff -n "__fish_ctxoff_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
