// A nested spec beside a tuple of batches sharing one source.
#[derive(DataSpec)]
struct Outer {
    #[spec(source = "v")]
    views: (Batch<Vector<4>>, Batch<Vector<2>>),
    inner: Labelled,
}
