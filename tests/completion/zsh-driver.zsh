# Drives zsh's completion for cugraphrun as zsh would on TAB, in a zsh of
# its own on a pseudo-terminal (zsh/zpty): run by tests/completion.test as
#     zsh -f zsh-driver.zsh FUNCDIR BINDIR LINE...
# with FUNCDIR holding the generated _cugraphrun and BINDIR cugraphrun.
# For each LINE, prints "LINE -> the matches, sorted, one space apart":
# every compadd is also asked for its matches (compadd -O), and a
# comppostfunc prints them instead of inserting one.
zmodload zsh/zpty || exit 77
funcdir=$1 bindir=$2
shift 2
zpty z zsh -f -i
zpty -w z "PS1=''; PS2=''; RPS1=''; unsetopt zle_bracketed_paste 2>/dev/null; PATH=${(q)bindir}:\$PATH"
zpty -w z "fpath=(${(q)funcdir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'typeset -ga t_hits; compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits; builtin compadd -O hits "$@"; t_hits+=($hits); builtin compadd "$@"; }'
# the markers are made as they are printed: the terminal's echo of this line holds none
zpty -w z 't_post() { print -r -- "HITS$((40+2)):${(j: :)${(@uo)t_hits}}:END$((40+2))"; t_hits=(); compstate[insert]=""; compstate[list]=""; }'
# comppostfuncs is emptied after each completion: TAB sets it each time
zpty -w z 't_tab() { comppostfuncs=(t_post); zle complete-word; }; zle -N t_tab; bindkey "^I" t_tab'
for line in "$@"; do
	zpty -w -n z "$line"$'\t'
	got= n=0
	while (( n++ < 400 )); do
		zpty -r -t z out || { sleep 0.05; continue; }
		out=${out//$'\r'/}
		[[ -n $T_DEBUG ]] && print -r -- "raw: ${(q+)out}" >&2
		if [[ $out == *HITS42:*:END42* ]]; then
			got=${${out##*HITS42:}%%:END42*}
			break
		fi
	done
	print -r -- "$line -> $got"
	zpty -w -n z $'\C-u'
done
zpty -d z
