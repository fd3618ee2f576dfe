// An empty module: bench/run.py's "startup" row times `RUNTIME empty.mjs`
// (process start to exit, with nothing to do) and records its peak RSS.
