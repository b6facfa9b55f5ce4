// Loading a dataset from a file (CSV here; IDX, .npy, .npz and Parquet alike): a record that
// cannot be loaded (a shared batch, for requests) is one error in words, with the note pointing
// at the field and the help naming `SharedBatch`, not the batch's ndarray storage.
use batchspec::data::Dataset;
use batchspec::load::CsvFile;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: ArcBatch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Labels<3>>,
}

fn main() {
    let mut csv = CsvFile::new("digits.csv");
    let _ = Dataset::<Record>::load(&mut csv);
}
