// A record that holds one source in two fields of different kinds (an image and a vector) serves
// each request's field from the record's field of its kind: through `assert_serves`, a provider
// and a server alike.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![2, 2, 1; BHWC, u8]>,
    #[spec(source = "features")]
    flat: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Mlp {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Conv {
    #[spec(source = "features")]
    x: Batch<image![2, 2, 1; BCHW, f32]>,
}

const _: () = batchspec::mapping::assert_serves::<Record, Mlp>();
const _: () = batchspec::mapping::assert_serves::<Record, Conv>();
const _: () = batchspec::mapping::assert_serves::<Record, (Mlp, Conv)>();

fn provide<Q: ProvidedBy<Record>>(ds: &batchspec::data::Dataset<Record>) {
    let schedule = batchspec::iteration::Schedule::builder(ds.len()).build().unwrap();
    let _ = batchspec::data::Provider::<Record, Q>::new(ds, schedule);
}

fn main() {
    let _ = provide::<Mlp>;
    let _ = provide::<Conv>;
}
