// The operations endpoint (issue 15). Filled in by the ops lane.
