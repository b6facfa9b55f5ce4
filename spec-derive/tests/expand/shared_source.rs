// A record holding one source in two fields: no `HasSource` for it.
#[derive(DataSpec)]
struct Twice {
    #[spec(source = "x")]
    a: Batch<Vector<2>>,
    #[spec(source = "x")]
    b: Batch<Vector<2>>,
}
