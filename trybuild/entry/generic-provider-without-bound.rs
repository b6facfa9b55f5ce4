// Generic code that bounds the pair with `R: Serves<Q>` (a check that the record serves the
// request) and builds a provider: the first error names the one bound a provider needs.
use batchspec::data::{Dataset, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;

fn epoch<R: Serves<Q>, Q: DataSpec>(ds: &Dataset<R>, schedule: Schedule) -> Result<(), batchspec::Error> {
    let mut provider = Provider::<R, Q>::new(ds, schedule)?;
    while let Some(_batch) = provider.next_batch() {}
    Ok(())
}

fn main() {}
