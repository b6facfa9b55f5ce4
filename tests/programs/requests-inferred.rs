// No turbofish where the type is known: the request comes from the binding or from the
// signature of the code that takes it.
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::data::Provider;
use batchspec::mapping::{ServeCache, Server, serve};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<3>>,
}

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Cost {
    #[spec(source = "targets")]
    y: Batch<Vector<3>>,
}

fn model(input: &ModelInput) -> usize {
    input.x.len()
}

fn main() -> Result<(), batchspec::Error> {
    let record = Record {
        image: Batch::zeros(2, 0),
        label: Batch::zeros(2, 0),
    };
    let mut server = Server::new(&record);
    let cost: Cost = server.get();
    assert_eq!(model(&server.get()), cost.y.len());
    let direct: ModelInput = serve(&record, &mut ServeCache::new());
    assert_eq!(direct.x.len(), 2);

    let ds = Dataset::new(record)?;
    let schedule = Schedule::builder(ds.len()).batch_size(2).build()?;
    let mut provider: Provider<'_, Record, ModelInput> = Provider::new(&ds, schedule)?;
    assert!(provider.next_batch().is_some());
    Ok(())
}
