// A type macro that reports its own error: the derive adds only stubs.
#[derive(DataSpec)]
struct BadLayout {
    x: Batch<VectorSeq<4, layout!(bxt)>>,
}
