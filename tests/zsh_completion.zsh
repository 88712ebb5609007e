# What zsh's completion system offers for a command line, as a user pressing Tab sees it: an interactive
# `zsh -f` on a pseudo-terminal, compinit with FOLDER first in fpath (the completion function as installed),
# and the line typed. Prints each candidate once, one a line. For tests/test_cli.cpp.
#   zsh -f tests/zsh_completion.zsh FOLDER 'gpurotate augment --'
zmodload zsh/zpty || exit 3
zpty shell zsh -f -i
zpty -w shell "PS1=''; RPS1=''; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
# A widget that runs the completion system and prints every candidate it adds (compadd -O: the matches, not
# added twice), each on a line of its own, then a line that says it is done.
zpty -w shell 'offered() { print >/dev/tty; compadd() { builtin compadd -O hits "$@"; print -rl -- "<<"${^hits[@]}">>" >/dev/tty; builtin compadd "$@" }; _main_complete; unfunction compadd; print -r -- "<<""done>>" >/dev/tty }'
zpty -w shell 'zle -C offered-widget complete-word offered; bindkey "^T" offered-widget'
zpty -w -n shell "$2"$'\x14'
zpty -r shell output '*<<done>>*' || exit 3
zpty -d shell
lines=(${(f)"${output//$'\r'/}"})
offered=(${(u)${(M)lines:#<<*>>}:#<<done>>})
print -rl -- ${${offered#<<}%>>}
