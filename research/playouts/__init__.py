"""Research on the search's leaf values in trick games: how much a playout that plays
like a card player (not uniformly) is worth to rollout search (see
``research/README.md``)."""
