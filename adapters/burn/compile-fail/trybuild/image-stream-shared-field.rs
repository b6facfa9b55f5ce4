// A stream of images reads its record as a dataset does: a field that shares its batch (an
// `ArcBatch`, for requests) is one error, in words, at the call.
use batchspec::iteration::Schedule;
use batchspec::load::images::{ImageFolder, ImageSteps, ImageStream};
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Photos {
    #[spec(source = "image")]
    image: ArcBatch<image![224, 224, 3; BCHW, f32]>,
    #[spec(source = "label")]
    label: Batch<Index<10>>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = ImageFolder::open("photos/train")?;
    let schedule = Schedule::builder(100).batch_size(32).build()?;
    let _stream = ImageStream::<Photos>::new(folder, ImageSteps::stretch(), schedule)?;
    Ok(())
}
