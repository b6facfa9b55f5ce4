// A provider asked for one-hot vectors of the wrong width: the reason is the one `format_as`
// gives (the width a one-hot of these labels has), at `Provider::new`.
use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct OneHot {
    #[spec(source = "targets")]
    y: Batch<Vector<12>>,
}

fn train(ds: &Dataset<Record>, schedule: Schedule) {
    let _ = Provider::<Record, OneHot>::new(ds, schedule);
}

fn main() {
    let _ = train;
}
