// A request that keeps its sequences ragged has no tensor form: ask for them padded.
use batchspec::prelude::*;
use batchspec_burn::IntoTensors;
use burn::tensor::Device;

#[derive(DataSpec)]
struct Input {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<100>>,
}

fn tensors(input: Input, device: &Device) {
    let _ = input.into_tensors(device);
}

fn main() {}
