use batchspec::data::{Dataset, Mix, Provider};
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use std::sync::Arc;

#[derive(DataSpec)]
struct Images {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
}

#[derive(DataSpec)]
struct Captions {
    #[spec(source = "tokens")]
    t: Batch<IndexSeq<100>>,
}

// A mixture serves one request: a source of another cannot join it.
fn mix(images: Arc<Dataset<Images>>, captions: Arc<Dataset<Captions>>, s: Schedule) {
    let a = Provider::<Images, Images>::shared(images, s.clone()).unwrap();
    let b = Provider::<Captions, Captions>::shared(captions, s).unwrap();
    let _ = Mix::of_samples(8).source(a, 0.5).unwrap().source(b, 0.5);
}

fn main() {}
