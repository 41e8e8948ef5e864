"""A page that draws nothing: with TE_BENCH_EMPTY_PAGE=1 the app serves it at /empty, and bench.load measures the
app shell's own rerun around it, the yardstick of the other pages' reruns (issue 27)."""
