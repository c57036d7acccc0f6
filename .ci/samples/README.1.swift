// README.md's first block is a whole program of its own: it needs no prelude.
