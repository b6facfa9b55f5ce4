#!/usr/bin/env bash
# Measures what #[derive(DataSpec)] on a struct of 64 leaves adds to `cargo check` of a crate
# that uses it: the same struct with and without the derive, each checked 5 times after a touch.
# `bash benches/compile_time.sh 256` does it for 256 leaves and also uses the struct as record
# and request (assert_serves, a Provider, a Server, a dataset selection) at the default
# recursion limit; `bash benches/compile_time.sh 256 512` with `#![recursion_limit = "512"]`.
set -euo pipefail
leaves=${1:-64}
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
python3 - "$dir/src/lib.rs" "$leaves" "${2:-}" <<'PY'
import sys
n = int(sys.argv[2])
limit = f'#![recursion_limit = "{sys.argv[3]}"]\n' if sys.argv[3] else ""
kinds = ["Batch<Vector<{n}>>", "Batch<Image<8, 8, {n}, {t}, BCHW, u8>>", "Batch<Index<{m}>>", "Batch<Labels<10>>"]
fields = [f"    f{i}: " + kinds[i % 4].format(n=i + 1, t=64 * (i + 1), m=i + 2) + "," for i in range(n)]
uses = ""
if n > 64:
    uses = (
        "#[cfg(feature = \"derive\")]\nconst _: () = batchspec::mapping::assert_serves::<Wide, Wide>();\n"
        "#[cfg(feature = \"derive\")]\npub fn serve_all(ds: &batchspec::data::Dataset<Wide>) -> Result<usize, batchspec::Error> {\n"
        "    let schedule = batchspec::iteration::Schedule::builder(ds.len()).batch_size(2).build()?;\n"
        "    let mut p = batchspec::data::Provider::<Wide, Wide>::new(ds, schedule)?;\n"
        "    let mut seen = 0;\n    while let Some(b) = p.next_batch() { seen += b.batch.f0.len(); }\n"
        "    let mut server = batchspec::mapping::Server::new(ds.fields());\n"
        "    let again: Wide = server.get();\n"
        "    let picked = ds.select(&[0])?;\n"
        "    Ok(seen + again.f1.len() + picked.f2.len())\n}\n"
    )
open(sys.argv[1], "w").write(
    limit + "#![allow(dead_code)]\nuse batchspec::prelude::*;\n"
    "#[cfg_attr(feature = \"derive\", derive(DataSpec))]\npub struct Wide {\n" + "\n".join(fields) + "\n}\n"
    "#[cfg(feature = \"derive\")]\npub fn leaves() -> usize { Wide::LEAVES + Wide::describe(1).len() }\n" + uses)
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
echo "$leaves leaves: cargo check without derive ${plain}s, with derive ${derived}s, derive adds $(echo "$derived - $plain" | bc)s"
