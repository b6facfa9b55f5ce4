use batchspec::prelude::*;
use batchspec_candle::IntoTensors;

// candle has no u16 tensors.
#[derive(DataSpec)]
struct Input {
    #[spec(source = "features")]
    x: Batch<Vector<3, u16>>,
}

fn tensors(input: Input) {
    let _ = input.into_tensors(&candle_core::Device::Cpu);
}

fn main() {}
