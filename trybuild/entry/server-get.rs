// Several consumers served from one record: the request is inferred from the binding, and a
// mismatch is reported at the `get` that asks for it.
use batchspec::prelude::*;
use batchspec::mapping::Server;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Cost {
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
    #[spec(source = "weights")]
    w: Batch<Vector<1>>,
}

fn step(record: &Record) {
    let mut server = Server::new(record);
    let cost: Cost = server.get();
    let _ = cost.y.array();
}

fn main() {
    let _ = step;
}
