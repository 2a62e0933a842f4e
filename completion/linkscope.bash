# bash completion for linkscope(1). The commands, their options and their
# formats come from the analyzer itself (`linkscope help --table`, made
# from the table it parses its command line with), so this file does not
# drift from it; record ids from `linkscope list`.
_linkscope()
{
	local cur prev words cword
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local ls=${words[0]} table cmd line
	table=$("$ls" help --table 2>/dev/null) || return
	if ((cword == 1)); then
		COMPREPLY=($(compgen -W "$(sed -n '/^formats /!s/ .*//p' <<<"$table") --help --version" -- "$cur"))
		return
	fi
	cmd=${words[1]}
	case $prev in
	--format)
		COMPREPLY=($(compgen -W "$(sed -n "s/^formats $cmd //p" <<<"$table")" -- "$cur"))
		return ;;
	--dir | --cache-dir | --accept-file | --cargo | --cmake | --root | --output | -o)
		COMPREPLY=($(compgen -d -- "$cur"))
		[[ $prev == --accept-file || $prev == --output || $prev == -o ]] && COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--line | --argv-file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--target | --profile)
		return ;;
	--accept)
		COMPREPLY=($(compgen -W "incidental-dso: fails-with-gnu-ld: fails-with-lld: fails-with-mold: copy-dt-needed: group-rescan: repeated-archive: lc-load-bearing: lc-redundant:" -- "$cur"))
		return ;;
	--since | --jobs | -j | --max-size | --max-age | --linkers | --baseline)
		return ;;
	esac
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$(sed -n '/^formats /!s/ .*//p' <<<"$table")" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		line=$(grep "^$cmd " <<<"$table")
		COMPREPLY=($(compgen -W "${line#* }" -- "$cur"))
		return
	fi
	case $cmd in
	show | explain | report | why | diff | check | whatif | bundle)
		local ids
		ids=$("$ls" list 2>/dev/null | sed 's#.*/##; s/\.json$//')
		COMPREPLY=($(compgen -W "last last-failed $ids" -- "$cur") $(compgen -f -- "$cur")) ;;
	index)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -F _linkscope linkscope
