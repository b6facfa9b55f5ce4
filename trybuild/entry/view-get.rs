// dp's view of one leaf: a form the base cannot be formatted as is refused at `get`.
use batchspec::prelude::*;
use batchspec::view::View;

fn forward(view: &mut View<image![28, 28, 1; BHWC, u8], f32>) -> Result<(), batchspec::Error> {
    // A model asking for a 10-wide vector of a 784-pixel image.
    let x = view.get::<Vector<10>>()?;
    let _ = x.array();
    Ok(())
}

fn main() {
    let _ = forward;
}
