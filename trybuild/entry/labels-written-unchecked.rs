// Labels are written through `set_label` or `update`, which check them; `array_mut` would let a
// label 12 into a space of 10 labels.
use batchspec::prelude::*;

fn main() {
    let mut y = Batch::<Labels<10>>::zeros(2, 0);
    y.array_mut()[0] = 12;
}
