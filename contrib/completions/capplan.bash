# bash completion for capplan(1): commands, options, and the scenario, group
# and cluster names of the database (`capplan complete`). Installed as
# $(PREFIX)/share/bash-completion/completions/capplan.

_capplan_names() { # _capplan_names KIND: names from the database of the line
    local db="" i
    for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
        case ${COMP_WORDS[i]} in
        --db) db=${COMP_WORDS[i + 1]} ;;
        --db=*) db=${COMP_WORDS[i]#--db=} ;;
        esac
    done
    if [[ -n $db ]]; then
        "${COMP_WORDS[0]}" --db "$db" complete "$1" 2>/dev/null
    else
        "${COMP_WORDS[0]}" complete "$1" 2>/dev/null
    fi
}

_capplan() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="import collect status check demo profile project scenario tui stats meetings research export"
    local cmd="" ci=0 i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        --db) ((i++)) ;;
        -*) ;;
        *) cmd=${COMP_WORDS[i]} ci=$i; break ;;
        esac
    done
    local IFS=$'\n'
    case $prev in
    --db | --dir | --csv | --peers | --anon-key | --terms)
        COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --scenario | --from)
        COMPREPLY=($(compgen -W "$(_capplan_names scenarios)" -- "$cur")); return ;;
    --group)
        COMPREPLY=($(compgen -W "$(_capplan_names groups)" -- "$cur")); return ;;
    --cluster)
        COMPREPLY=($(compgen -W "$(_capplan_names clusters)" -- "$cur")); return ;;
    --clusters)
        COMPREPLY=($(compgen -W "all"$'\n'"$(_capplan_names clusters)" -- "$cur")); return ;;
    --kind)
        COMPREPLY=($(compgen -W $'philly\nswf\nhelios\npai\nalibaba-pod' -- "$cur")); return ;;
    --by)
        if [[ $cmd == research ]]; then
            COMPREPLY=($(compgen -W $'kmeans\ncoauthors' -- "$cur"))
        else
            COMPREPLY=($(compgen -W $'month\nyear\nall' -- "$cur"))
        fi
        return ;;
    --sacct-format)
        COMPREPLY=($(compgen -W $'text\njson' -- "$cur")); return ;;
    --k)
        COMPREPLY=($(compgen -W auto -- "$cur")); return ;;
    --encoding)
        COMPREPLY=($(compgen -W $'utf-8\nlatin1' -- "$cur")); return ;;
    --since | --today | --seed | --jobs | --years | --window | --min-jobs | --reason | \
        --sacct | --delimiter | --fields | --tz | --table | --size | --iterations | \
        --bench-keys | --per-group | --explain | --backtest | --trace-start | --as-of)
        return ;;
    esac
    IFS=$' \t\n'
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--db --quiet --version --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands help" -- "$cur"))
        fi
        return
    fi
    local sub=${COMP_WORDS[ci + 1]} pos=$((COMP_CWORD - ci)) words="" opts=""
    case $cmd in
    import)
        words="sacct trace roster inventory gpu-metrics events pubs peers allocations carbon sites catalog"
        opts="--cluster --strict --fields --delimiter --tz --kind --trace-start --as-of --encoding --quiet --help" ;;
    collect)
        opts="--since --clusters --sacct-format --sacct --quiet --help" ;;
    status) opts="--json --help" ;;
    check) opts="--quick --help" ;;
    demo) opts="--seed --jobs --today --dir --no-tui --force --help" ;;
    profile)
        words="rename"
        opts="--k --window --roles --min-jobs --json --no-save --reason --help" ;;
    project)
        opts="--scenario --years --json --csv --explain --backtest --simulate --window --roles --min-jobs --k --help" ;;
    scenario)
        words="list new set diff rm undo redo"
        opts="--from --reason --group --json --help"
        if ((pos >= 2)) && [[ $cur != -* ]]; then
            case $sub in
            set | rm | undo | redo) ((pos == 2)) && words=$(_capplan_names scenarios) || words="" ;;
            diff) ((pos <= 3)) && words=$(_capplan_names scenarios) || words="" ;;
            *) words="" ;;
            esac
            IFS=$'\n'
            COMPREPLY=($(compgen -W "$words" -- "$cur"))
            return
        fi ;;
    tui) opts="--scenario --ascii --bench-keys --iterations --size --dump --help" ;;
    stats)
        words="utilization preemption waits efficiency domains pubs fairshare energy"
        opts="--by --group --cluster --table --scenario --json --csv --help" ;;
    meetings)
        words="list pick mismatches import export import-needs export-needs apply"
        opts="--per-group --scenario --reason --json --help" ;;
    research)
        words="apply"
        opts="--since --k --by --terms --json --csv --scenario --reason --help" ;;
    export)
        words="report.md report.html budget.xlsx"
        opts="--csv --scenario --anonymize --anon-key --peers --years --bom --help" ;;
    complete) words="scenarios groups clusters" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif ((pos == 1)) && [[ -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _capplan capplan
