# Drives bash's completion for cugraphrun as bash would on TAB: sourced by
# tests/completion.test in a bash with bash-completion and the generated
# script loaded.  offered LINE: the words offered for the last word of
# LINE, one a line, in $got (COMP_WORDS split as bash splits them: at
# blanks, with '=' and ':' words of their own).  compopt only notes its
# options in $opts (outside a TAB it cannot run).

compopt() { opts+=" $*"; }

offered() {
	local line=$1 w tok
	local -a raw
	COMP_WORDS=()
	read -ra raw <<<"$line"
	[[ $line == *" " ]] && raw+=("")
	for w in "${raw[@]}"; do
		[[ -z $w ]] && COMP_WORDS+=("")
		while [[ -n $w ]]; do
			if [[ $w == [=:]* ]]; then
				tok=${w%%[!=:]*}
			else
				tok=${w%%[=:]*}
			fi
			COMP_WORDS+=("$tok")
			w=${w#"$tok"}
		done
	done
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	opts=
	_cugraphrun "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort)
}
