use batchspec::data::Dataset;
use batchspec::prelude::*;

// A record of borrowed batches cannot lend its rows to be written.
#[derive(DataSpec)]
struct Borrowed<'a> {
    #[spec(source = "features")]
    x: BatchView<'a, Vector<4>>,
}

fn write(ds: &mut Dataset<Borrowed<'_>>) {
    let _ = ds.sample_mut(0);
}

fn main() {}
