"""One Dragon Lords game shown: a game of a run replayed exactly as events (``replay``),
scripted games with moves given and dice forced (``script``) and the board drawn
(``picture``)."""
