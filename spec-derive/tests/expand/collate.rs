// A request padding a sequence source (pad value, fixed steps, truncation), with its lengths and
// mask.
#[derive(DataSpec)]
struct Padded {
    #[spec(source = "t", pad = 0, pad_to = 8, truncate)]
    tokens: Batch<IndexSeq<50>>,
    #[spec(lengths_of = "t")]
    len: Batch<Lengths>,
    #[spec(mask_of = "t")]
    mask: Batch<Mask>,
}
