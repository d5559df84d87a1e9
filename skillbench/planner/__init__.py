"""The listing budget planner: what each agent shows of a catalog, how that changes as
usage decays, the smallest budget that fits, and description edits that make it fit."""
