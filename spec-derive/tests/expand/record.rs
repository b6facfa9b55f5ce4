// A record: two batch fields, each naming its source; a doc comment copied to the mapped struct.
#[derive(DataSpec)]
pub struct Record {
    /// The pixels, as stored.
    #[spec(source = "img")]
    pub image: Batch<Image<2, 2, 3, 12>>,
    #[spec(source = "y")]
    pub label: Batch<Index<3>>,
}
