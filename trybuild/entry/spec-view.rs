// dp's composite view: a request the record cannot serve is reported at `get`.
use batchspec::prelude::*;
use batchspec::view::SpecView;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
}

fn step(view: &mut SpecView<Record, f32>) -> Result<(), batchspec::Error> {
    let request: Request = view.get()?;
    let _ = request.y.array();
    Ok(())
}

fn main() {
    let _ = step;
}
