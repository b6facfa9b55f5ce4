// WebDataset shards as a stream: a record with a borrowed field (a `BatchView`) is one error,
// in words, at the call.
use batchspec::iteration::Shard;
use batchspec::load::images::{ImageSteps, ShardStream};
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Photos<'a> {
    #[spec(source = "jpg")]
    image: BatchView<'a, image![64, 64, 3; BHWC, u8]>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rank = Shard::new(0, 1)?;
    let _stream = ShardStream::<Photos>::open("shard-{000..009}.tar", ImageSteps::center_crop(), 64, rank)?;
    Ok(())
}
