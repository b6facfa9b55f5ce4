// A space given a layout of another space: reported by the struct itself; the derive adds nothing.
#[derive(DataSpec)]
struct Foreign {
    x: Batch<VectorSeq<64, BHWC>>,
}
