// Generic code over a record and a request: `Q: ProvidedBy<R>` is the one bound a provider, its
// owned batches and a prefetch of it need (with `Send + 'static` where batches move to a thread).
use batchspec::data::{Dataset, IntoPrefetch, Prefetch, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::sync::Arc;

fn epoch<R: DataSpec, Q: ProvidedBy<R>>(ds: &Dataset<R>, schedule: Schedule) -> Result<usize, batchspec::Error> {
    let mut provider = Provider::<R, Q>::new(ds, schedule)?;
    let mut seen = 0;
    while let Some(b) = provider.next_batch() {
        seen += b.info.count_samples;
    }
    while let Some((_batch, info)) = provider.next_owned() {
        seen += info.count_samples;
    }
    Ok(seen)
}

fn on_threads<R, Q>(ds: Arc<Dataset<R>>, schedule: Schedule) -> Result<(), batchspec::Error>
where
    R: DataSpec + Send + Sync + 'static,
    Q: ProvidedBy<R> + Send + 'static,
{
    let mut prefetch = Prefetch::<Q>::provider::<R>(ds.clone(), schedule.clone(), 0..1, 2);
    while let Some(batch) = prefetch.next_batch() {
        let _ = batch?;
    }
    let mut owned = Provider::<R, Q>::shared(ds, schedule)?.prefetched(2);
    while let Some(batch) = owned.next_owned() {
        let _ = batch?;
    }
    Ok(())
}

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<2>>,
}

#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<2, f64>>,
}

fn main() {
    let _ = epoch::<Record, Input>;
    let _ = on_threads::<Record, Input>;
}
