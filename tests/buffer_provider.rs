//! Buffer layouts through the spec types: templates from spaces, typed views of arena leaves,
//! and a provider that gathers straight into the arena without allocating.

use batchspec::buffer::{BufferManager, LayoutSpec};
use batchspec::data::Dataset;
use batchspec::data::Provider;
use batchspec::iteration::{LastBatch, Schedule};
use batchspec::prelude::*;
use ndarray::{Array2, Array3, ViewRepr};

mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<4>>,
    #[spec(source = "targets")]
    y: Batch<Index<3, 1, u8>>,
}

/// The request, borrowing the arena: the features land in the input layer's output, the
/// targets, one-hot, in the targets layer's.
#[derive(DataSpec)]
struct InArena<'a> {
    #[spec(source = "features")]
    x: Batch<Vector<4>, ViewRepr<&'a mut f32>>,
    #[spec(source = "targets")]
    y: Batch<Vector<3>, ViewRepr<&'a mut f32>>,
}

#[test]
fn a_provider_fills_the_arena_in_place_without_allocating() {
    let n = 50;
    let ds = Dataset::new(Record {
        x: Batch::new(Array2::from_shape_fn((n, 4), |(i, j)| (i * 4 + j) as f32)).unwrap(),
        y: Batch::new(Array2::from_shape_fn((n, 1), |(i, _)| (i % 3) as u8)).unwrap(),
    })
    .unwrap();
    let mut spec = LayoutSpec::new();
    spec.layer("Input").output_of::<Vector<4>>("default");
    spec.layer("Targets").output_of::<Vector<3>>("default");
    let mut manager = BufferManager::<f32>::new(spec.build().unwrap()).unwrap();
    manager.resize(1, 8).unwrap();
    let schedule = Schedule::builder(n)
        .batch_size(8)
        .shuffle(true)
        .seed(9)
        .last_batch(LastBatch::Pad)
        .build()
        .unwrap();
    let mut provider = Provider::<Record, InArena<'_>>::unbuffered(&ds, schedule.clone()).unwrap();
    let ids = (
        manager.layout().find("Input.outputs.default").unwrap(),
        manager.layout().find("Targets.outputs.default").unwrap(),
    );

    let run_epoch = |manager: &mut BufferManager<f32>,
                     provider: &mut Provider<'_, Record, InArena<'_>>,
                     e: u64,
                     check: bool| {
        provider.start_epoch(e);
        let mut epoch = check.then(|| schedule.epoch(e));
        loop {
            let [x, y] = manager.views_mut([ids.0, ids.1]).unwrap();
            let mut q = InArena {
                x: Batch::from_dyn(x).unwrap(),
                y: Batch::from_dyn(y).unwrap(),
            };
            let Some(info) = provider.fill_next(&mut q) else {
                break;
            };
            let info = info.unwrap();
            if check {
                let rows = epoch.as_mut().unwrap().next().unwrap().indices().to_vec();
                let x = manager.batch_view::<Vector<4>>(ids.0).unwrap();
                for (j, &i) in rows.iter().enumerate().take(info.count_samples) {
                    assert_eq!(x.array().row(j), ds.fields().x.array().row(i));
                }
                let y = manager.batch_view::<Vector<3>>(ids.1).unwrap();
                assert_eq!(y.array()[[0, (rows[0] % 3)]], 1.0);
            }
        }
    };
    run_epoch(&mut manager, &mut provider, 0, true);
    let before = common::allocations();
    for e in 1..4 {
        run_epoch(&mut manager, &mut provider, e, false);
    }
    assert_eq!(
        common::allocations(),
        before,
        "a steady-state epoch into the arena allocated"
    );
    let _ = Array3::<f32>::zeros((1, 1, 1));
}
