# Sourced by .ci/run and .ci/check: machine_busy prints the machine's busy CPU seconds since
# boot (every core, every process: PostgreSQL's and Redis's work too), from /proc/stat.
machine_busy() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat
}
