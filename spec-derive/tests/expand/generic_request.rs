// A generic request whose parameter takes the record parameter's name `R`: the `pad_to` bound on
// every impl, an augmentation refused (generics), labels mixed with a source no field augments.
#[derive(DataSpec)]
struct GenericReq<R: Space> {
    #[spec(source = "t", pad_to = 8)]
    tokens: Batch<IndexSeq<50>>,
    #[spec(source = "img", augment = Train)]
    image: Batch<Image<4, 5, 2, 40>>,
    #[spec(source = "y", mixed_with = "other")]
    label: Batch<R>,
}
