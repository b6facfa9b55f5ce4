// An error: an unknown key, reported with a suggestion, and the stubs (through the crate path the
// struct names) that keep it the only error.
#[derive(DataSpec)]
#[spec(crate = "bs")]
struct Misspelt<S: Space> {
    #[spec(sorce = "x")]
    x: Batch<S>,
}
