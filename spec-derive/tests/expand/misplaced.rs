// Keys the generated code reports beside the impls: `augment` on a tuple, `pad_to` on a nested
// spec, a pad value that is not a label; and a raw identifier as a field name.
#[derive(DataSpec)]
struct Misplaced {
    #[spec(source = "v", augment = Train)]
    views: (Batch<Vector<4>>, Batch<Vector<2>>),
    #[spec(pad_to = 4)]
    inner: Labelled,
    #[spec(source = "t", pad = 50)]
    tokens: Batch<IndexSeq<50>>,
    r#type: Batch<Labels<3>>,
}
