"""Research on Oh Hell's bids: how the planner's bids miss, and what a shifted or
learned bid is worth in play (see ``research/README.md``)."""
