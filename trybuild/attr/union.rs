use batchspec::prelude::*;

#[derive(DataSpec)]
union Record {
    a: u32,
    b: f32,
}

fn main() {}
