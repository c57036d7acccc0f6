# Sourced by the counting scripts beside it (count-instructions.sh, count-allocations.sh,
# profile-request.sh), from this folder: builds the benchmark in release and sets `binary` to a
# copy of it that valgrind can read, removed when the script exits.
swift build -c release >/dev/null 2>&1
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
cp .build/release/Benchmarks "$binary"
chmod +x "$binary"
# valgrind 3.19 cannot read the DWARF 5 debug info Swift emits; the symbols are enough here.
strip --strip-debug "$binary"
