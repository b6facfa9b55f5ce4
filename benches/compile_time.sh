#!/usr/bin/env bash
# Measures what #[derive(DataSpec)] on a struct of 64 leaves adds to `cargo check` of a crate
# that uses it: the same struct with and without the derive, each checked 5 times after a touch.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "wide-spec"
version = "0.1.0"
edition = "2024"
[dependencies]
batchspec = { path = "$repo" }
[features]
derive = []
[workspace]
TOML
python3 - "$dir/src/lib.rs" <<'PY'
import sys
kinds = ["Batch<Vector<{n}>>", "Batch<Image<8, 8, {n}, {t}, BCHW, u8>>", "Batch<Index<{m}>>", "Batch<Labels<10>>"]
fields = [f"    f{i}: " + kinds[i % 4].format(n=i + 1, t=64 * (i + 1), m=i + 2) + "," for i in range(64)]
open(sys.argv[1], "w").write(
    "#![allow(dead_code)]\nuse batchspec::prelude::*;\n"
    "#[cfg_attr(feature = \"derive\", derive(DataSpec))]\npub struct Wide {\n" + "\n".join(fields) + "\n}\n"
    "#[cfg(feature = \"derive\")]\npub fn leaves() -> usize { Wide::LEAVES + Wide::describe(1).len() }\n")
PY
cd "$dir"
export CARGO_TARGET_DIR="$dir/target"
for features in "" "--features derive"; do cargo check -q $features; done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  for _ in 1 2 3 4 5; do
    touch src/lib.rs
    s=$(date +%s.%N); cargo check -q "$@"; e=$(date +%s.%N)
    echo "$e - $s" | bc
  done | median
}
plain=$(measure)
derived=$(measure --features derive)
echo "64 leaves: cargo check without derive ${plain}s, with derive ${derived}s, derive adds $(echo "$derived - $plain" | bc)s"
