// A request with conversions: the images as BCHW floats, the labels one-hot.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "img")]
    image: Batch<Image<2, 2, 3, 12, BCHW, f32>>,
    #[spec(source = "y")]
    label: Batch<Vector<3>>,
}
