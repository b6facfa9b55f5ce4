// An augmented image field and labels mixed with its pairs.
#[derive(DataSpec)]
struct MixReq {
    #[spec(source = "img", augment = MixTrain)]
    image: Batch<Image<4, 5, 2, 40>>,
    #[spec(source = "y", mixed_with = "img")]
    label: Batch<OneHot<3>>,
}
